package find

// heldOutSealed21 is sealed request set 21 for aeat_mcp_find (issue 28 item 5:
// the right tool in the first three for at least 9 of 10 requests the ranking
// was not tuned to). It was written blind on 2026-12-03 by a helper session
// for the lead to measure; no other engineer saw it first.
//
// Rules kept while writing it: paraphrases.json, lexicon.go, rank*.go,
// rank_test.go (beyond the rankRequest type quoted in the brief),
// rank_sealed*_test.go, testdata/find/, anything under internal/find/, the e2e
// tests about find, BENCHMARKS.md and every closing note or report under
// /work/lead or /root/lead-private (other than this set's own folder) were not
// opened; aeat_mcp_find, the ranker and the tests were not run; the three
// requests quoted in issue 28 item 5 are neither reused nor reworded (no
// bank-statement import, no general "what deadlines are coming", no duplicate
// deletion). What was read: the CLI's tree and help (testdata/aeat-cli/
// commands.json, help.json), the tool names of examples/aeat.full.manifest.json,
// ../shared/aeat-cli/facts.json and facts.md, and the CLI's own source and
// how-to guides at d08c5edf (nevenincs/cadrumo).
//
// Personas, new to the sets: a freelance journalist paid per article by several
// outlets, a mechanic with a workshop and two employees, a nurse with a hospital
// salary and private home visits, a lorry driver under módulos (Modelo 131 is
// served: --irpf-estimation-regime objetiva and registry revisions 2019-2026),
// a self-employed cleaner for households and one office, a night-call
// locksmith, and a person whose long rambling messages bury the request.
// 20 Spanish and 20 English requests, weighted by what such users do most,
// about ten of them harder (indirect wording, a synonym the help does not use,
// a question, a goal instead of an action). Each want lists every tool that
// would correctly serve the request (1 to 3), each justified with the CLI
// path, its help line and en.yml/es.yml line in sealed21-justification.md.
//
// Not run before it was committed.
var heldOutSealed21 = []rankRequest{
	// Spanish.
	{"Una señora a la que le limpio la casa me paga 60 euros en efectivo cada viernes. ¿Cómo apunto ese dinero para que cuente?", []string{"app_ledger_add"}},
	{"Me he equivocado con un cobro: puse 80 euros y en realidad fueron 60. Quiero arreglarlo.", []string{"app_ledger_update"}},
	{"Hemos comprado un elevador para el taller por 9.000 euros y el gestor dice que es un bien de inversión y que hay que tenerlo controlado unos años por lo del IVA. ¿Cómo lo registro?", []string{"app_ledger_bienes_inversion_declare"}},
	{"Mete en el inventario del taller que hoy he comprado 40 juegos de pastillas de freno a 12 euros cada uno.", []string{"app_ledger_inventory_movement_add"}},
	{"Acabo de contratar a un segundo mecánico. ¿Cómo le digo al programa que ahora tengo trabajadores, para que me salgan los modelos de las retenciones?", []string{"config_profile_edit"}},
	{"Prepárame el 111 del tercer trimestre con las retenciones de las nóminas de los chicos.", []string{"app_modelo_work_create", "app_modelo_work_calculate", "app_overview_prepare"}},
	{"Quiero ver el borrador de la renta que me ha preparado Hacienda con lo del hospital.", []string{"app_live_borrador_100_latest", "app_live_borrador_100_list", "app_live_borrador_100_view"}},
	{"En recursos humanos del hospital me piden que les dé otra vez el papel con mis datos familiares para lo que me retienen en la nómina, porque he tenido una niña.", []string{"app_modelo_m145_create"}},
	{"He tenido una hija en marzo. ¿Dónde la añado para que me cuente en la declaración de la renta?", []string{"config_profile_descendiente_add"}},
	{"Voy por módulos con el camión. ¿Qué números del 131 tengo que poner yo a mano y cuáles saca el programa solo?", []string{"app_modelo_requires", "app_modelo_casillas"}},
	{"Me ha llegado un SMS de que tengo una notificación de Hacienda en la DEHú. ¿Me la puedes descargar?", []string{"notifications_pull", "app_live_notifications_latest"}},
	{"¿Le debo algo a Hacienda? Quiero mirar si tengo alguna deuda pendiente con ellos.", []string{"app_live_deudas_latest", "debts_list", "app_live_deudas_view"}},
	{"Pago el móvil desde la cuenta del negocio pero también lo uso para mis cosas. ¿Cómo hago para que solo cuente la mitad como gasto del trabajo?", []string{"app_ledger_allocate", "app_ledger_ratios_set", "app_ledger_classify"}},
	{"¿Qué me falta todavía para poder presentar el IVA del cuarto trimestre?", []string{"app_modelo_readiness", "app_overview_prepare", "app_overview_pipeline"}},
	{"Ya presenté en la sede el 036 para añadir la actividad de instalación de alarmas; quiero dejarlo anotado aquí.", []string{"app_modelo_m036_modificacion"}},
	{"Los periódicos me retienen el 15% de cada factura. ¿Dónde meto esas retenciones cuando calculo el pago fraccionado del trimestre?", []string{"app_modelo_work_calculate", "app_modelo_work_wizard"}},
	{"Apunta la factura que le he hecho a La Voz por los cuatro reportajes de octubre: 600 euros de base, IVA al 21% y retención del 15%.", []string{"app_ledger_invoice_add", "app_ledger_invoice_wizard"}},
	{"Hola, perdona el rollo, es que llevo una semana de locos: se me estropeó la lavadora, mi hijo empieza el instituto el lunes y el portátil va lentísimo, no sé si será por las actualizaciones. Bueno, a lo que iba. Mi hermana me echa una mano con los papeles de los arreglos de costura que hago en casa, y me ha pedido que le pase todos los movimientos del año en un Excel para revisarlos ella con calma en su casa, así que sácamelo si puedes. Ah, y luego recuérdame que te pregunte por lo de la factura de la luz, pero eso otro día.", []string{"app_ledger_export"}},
	{"Buenas. Te cuento: mi cuñado dice que el año pasado le multaron por no presentar no sé qué modelo y me he quedado preocupada. Yo hago arreglos de ropa en casa desde enero, me di de alta y todo, pero el gestor que tenía se jubiló en primavera y desde entonces lo llevo yo con el programa como puedo. Total, lo que quiero saber es si hay algo que ya tendría que haber presentado y se me ha pasado, para ponerme con eso lo primero. Y si te da tiempo luego me explicas lo de la cuota de autónomos, que nunca lo he entendido.", []string{"app_overview_backlog", "overview_agenda"}},
	{"¿Cuánto IVA me va a tocar pagar este trimestre?", []string{"app_modelo_work_calculate", "app_modelo_work_revision"}},

	// English.
	{"Do I even have to file the quarterly 130? Nearly everything I earn already has tax withheld by the newspapers.", []string{"app_overview_explain"}},
	{"A Portuguese magazine wants to commission a piece. Before I invoice them, can you check their EU VAT number is real?", []string{"app_live_verify_nif_iva"}},
	{"Show me every payment that came in from the newspapers in September.", []string{"ledger_list"}},
	{"I keep all my invoices to the papers in a spreadsheet. Can you load the whole sheet in one go?", []string{"app_ledger_invoice_import"}},
	{"The Q3 VAT return is verified. Give me the file I have to upload on the AEAT website.", []string{"app_modelo_export"}},
	{"What was my closing stock of parts at the end of the year, and how much did the parts I sold cost me?", []string{"app_ledger_inventory_valuation_preview"}},
	{"Would my husband and I pay less if we did the Renta together instead of separately?", []string{"app_modelo_work_compare_taxation"}},
	{"I exported the Renta from here and uploaded it on the AEAT website this morning. Mark it as filed.", []string{"app_modelo_work_file"}},
	{"I'm on módulos, not estimación directa, and I run one lorry. Fix that in my tax profile.", []string{"config_profile_edit"}},
	{"When's the deadline for the third-quarter 131? I need to have the money set aside by then.", []string{"app_overview_calendar", "overview_agenda"}},
	{"I've got a folder full of photos of diesel receipts from this month's runs. Load them all in at once.", []string{"app_ledger_evidence_batch"}},
	{"I kept the receipt for the vacuum cleaner as a PDF. Store it and hook it to that purchase in my books.", []string{"app_ledger_evidence_add", "app_ledger_attach"}},
	{"Every transfer from Oficinas Norte SL is my cleaning income. Make it sort those automatically from now on.", []string{"app_ledger_rule_add"}},
	{"Give me a to-do list of everything I still have to decide on: payments I haven't sorted, invoices that don't match, that kind of thing.", []string{"app_review_queue"}},
	{"One card payment at the hardware store was half drill bits for a job and half a lamp for my flat. Split it into two lines, 45 and 30.", []string{"app_ledger_split"}},
	{"Not sure if that 200 euro transfer was a job or me lending money to my brother. Park it until I find out.", []string{"app_ledger_stash"}},
	{"I've got my FNMT certificate as a .p12 file. Set it up so the tool can get into AEAT for me.", []string{"config_auth_configure", "config_auth_certificate_register"}},
	{"ok so long story, my friend who used to do my books moved to Valencia so I'm doing it myself now, which, fine. The bank is asking for paperwork for the mortgage, and since I don't get payslips they want \"proof of the VAT return for the first quarter\", which I think means the official receipt AEAT gives you when you file? I did file it in April but I never saved anything, I just closed the browser. Can you get that from AEAT? Also the mortgage guy keeps ringing me at dinner time, which is annoying but not your problem haha", []string{"justificante_pull", "app_modelo_reconcile_pull"}},
	{"Morning! Sorry, this will be a long one. My laptop is six years old and the fan sounds like a hairdryer; my nephew says it could die any day, and everything for my alterations business is in this tax program, the whole year, receipts, all of it. He's bringing me a USB stick on Sunday. Before anything dies I want a copy of all of it put on the stick, locked with a password so nobody can read it if I lose the stick. Then on Sunday maybe he can look at the fan as well.", []string{"config_profile_archive_export"}},
	{"hi again, it's me with the sewing business. Quick context: July was chaos, my mum was in hospital, and I did the second-quarter income tax payment in a hurry and uploaded it. Going through receipts now I found I counted the sewing machine repair twice, so the expenses on that one are too high. My sister says you can't just redo it, you have to file a correction? I want to fix the one I already sent in. Sorry, and thanks, mum is fine now.", []string{"app_modelo_work_amend_wizard", "app_modelo_work_amend"}},
}
