package find

// heldOutSealed18 is sealed request set 18 for aeat_mcp_find (issue 28 item 5):
// 40 requests, 20 in Spanish and 20 in English, written blind by a helper
// session for the lead's measure of "the right tool in the first three for
// at least 9 of 10 requests the ranking was not tuned to".
//
// Who: a plumber/electrician with a van and a helper, a yoga or music
// teacher giving classes at home and in a gym, a Catalan speaker writing
// Spanish with Catalan slips, a widow or widower who now handles the papers
// the partner used to, a software contractor billing a US company, and a
// person angry or stressed after a missed deadline. Twelve are harder
// (indirect wording, a synonym the help does not use, a question, a goal
// instead of an action); sealed18-justification.md marks them.
//
// Rules kept: the writer did not open paraphrases.json, lexicon.go, rank*.go,
// rank_test.go (beyond the four lines defining rankRequest),
// rank_sealed*_test.go, testdata/find/, any e2e test about find,
// BENCHMARKS.md, or any earlier set, closing note or report; did not run
// aeat_mcp_find, the ranker or any test; and did not reuse or reword the three
// requests quoted in issue 28 item 5. Only the CLI's tree and help
// (testdata/aeat-cli/commands.json, help.json), the tool names of
// examples/aeat.full.manifest.json, ../shared/aeat-cli/facts.*, and the CLI's
// source and how-to guides at d08c5edf were read. Each want lists every tool
// that correctly serves the request (1 to 3), each checked to exist in the
// full manifest and justified in sealed18-justification.md.
//
// This set was not run before it was committed.
var heldOutSealed18 = []rankRequest{
	// Spanish.
	{"quiero ver todos los gastos de gasoil de la furgo del último trimestre", []string{"ledger_list"}},
	{"la furgo la uso también el finde para mis cosas, cómo hago para que solo cuente un 80% como gasto del negocio", []string{"app_ledger_ratios_set", "app_ledger_allocate"}},
	{"tengo que hacer el 111 de este trimestre por la nómina de mi ayudante", []string{"app_modelo_work_create", "app_modelo_work_calculate", "app_modelo_work_wizard"}},
	{"me equivoqué en el importe de la factura que le hice al cliente de la reforma del baño, quiero corregirla", []string{"app_ledger_invoice_update", "app_ledger_invoice_add"}},
	{"la furgoneta nueva costó 28.000 €, me han dicho que el IVA de eso se regulariza durante varios años, dónde lo apunto", []string{"app_ledger_bienes_inversion_declare"}},
	{"doy clases de yoga en el salón de casa, qué gastos de la casa puedo meter con un porcentaje?", []string{"app_ledger_ratios_eligible", "app_ledger_ratios_set"}},
	{"en el gimnasio donde doy clases me piden el modelo 145 con los datos de mis hijos, prepáramelo", []string{"app_modelo_m145_create"}},
	{"¿las clases de piano que doy en casa llevan IVA o no? no sé si me toca hacer el 303", []string{"app_overview_explain"}},
	{"apunta la factura de septiembre que le hice al gimnasio, 600 euros con la retención del 15%", []string{"app_ledger_invoice_add"}},
	{"ya presenté el 036 de alta a la seu electrònica el dilluns, com lo apunto aquí?", []string{"app_modelo_m036_alta"}},
	{"necessito el justificante del 303 del segon trimestre que ja vaig presentar, bájamelo de Hacienda", []string{"justificante_pull", "app_modelo_reconcile_pull"}},
	{"quiero veure totes les factures que he fet a clients aquest any", []string{"app_ledger_invoice_list"}},
	{"un cliente de Perpinyà me dona un NIF intracomunitari, com sé si es bueno antes de facturarle?", []string{"app_live_verify_nif_iva"}},
	{"mi marido llevaba todo lo de Hacienda y ahora no sé si debemos algo, dónde se ve eso", []string{"app_live_deudas_latest", "debts_list", "app_live_deudas_view"}},
	{"el certificado digital que está puesto es el de mi marido, quiero poner el mío", []string{"config_auth_certificate_register", "config_auth_certificate_select", "config_auth_configure"}},
	{"este año la renta la hago yo sola con mis dos hijos, ¿me sale mejor hacerla conjunta?", []string{"app_modelo_work_compare_taxation"}},
	{"facturo a una empresa de California en dólares, cómo registro la factura de este mes", []string{"app_ledger_invoice_add"}},
	{"se me pasó el plazo del 130 y estoy de los nervios, ¿qué más tengo sin presentar?", []string{"app_overview_backlog"}},
	{"metí mal una casilla en el 303 que presenté tarde, tengo que arreglarlo ya", []string{"app_modelo_work_amend_wizard", "app_modelo_work_amend"}},
	{"quiero ver qué declaraciones tengo presentadas a mi nombre estos últimos años", []string{"app_live_expedientes_pull", "app_live_filed_pull_all", "filed_list"}},
	// English.
	{"my US client just wired me 4,200 dollars, add it to the books", []string{"app_ledger_add"}},
	{"Acme Inc is in Delaware, not anywhere in the EU - save that about them so the VAT is treated right", []string{"app_ledger_counterparty_confirm"}},
	{"why does it keep saying I have to file the 349? all my clients are American", []string{"app_overview_explain"}},
	{"my gestor wants a spreadsheet with all of Q3's transactions", []string{"app_ledger_export"}},
	{"GitHub and AWS charge me every month, can those get categorised on their own from now on?", []string{"app_ledger_rule_add", "app_ledger_rule_apply"}},
	{"is my digital certificate about to expire?", []string{"config_auth_certificate_check"}},
	{"I filed my Q2 130 late, straight on the AEAT website. how do I mark it done in here?", []string{"app_modelo_work_file", "app_modelo_filing_record_import"}},
	{"I'm already late, just get me from nothing to a finished Q3 VAT return, step by step", []string{"app_overview_prepare", "app_modelo_work_wizard"}},
	{"did Hacienda send me anything about the return I missed? check my official inbox", []string{"notifications_pull", "app_live_notifications_latest"}},
	{"give me the file I upload to the AEAT site for my Q2 IVA, right now", []string{"app_modelo_export"}},
	{"add a cash job: 180 euros for fixing a leak, paid today", []string{"app_ledger_add"}},
	{"I scanned a pile of supplier receipts into one folder, load them all in", []string{"app_ledger_evidence_batch"}},
	{"one payment at the hardware store was half tools for work and half stuff for my house, can I break it in two?", []string{"app_ledger_split"}},
	{"for the 115 on the workshop I rent, which boxes do I have to type in by hand?", []string{"app_modelo_requires"}},
	{"am I ready to file my Q4 130 or is something still missing?", []string{"app_modelo_readiness", "app_overview_pipeline", "app_ledger_preflight"}},
	{"which of my transactions haven't I marked as business or personal yet?", []string{"app_review_queue", "ledger_list", "app_ledger_review"}},
	{"my wife always did our taxes. where can I see the draft return the tax agency prepares for me?", []string{"app_live_borrador_100_latest", "app_live_borrador_100_list"}},
	{"my wife passed away in March and the app still has me down as married", []string{"config_profile_edit"}},
	{"how do I connect this to the tax office with the Cl@ve app on my phone?", []string{"config_auth_configure", "config_auth_login"}},
	{"from the four quarterly 130s I've done, can you estimate how my annual Renta will come out?", []string{"app_modelo_project"}},
}
