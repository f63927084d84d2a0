package find

// heldOutSealed22 is sealed request set 22 for aeat_mcp_find (issue 28, item 5): 40
// requests that users of the aeat CLI would send an assistant, 20 in Spanish then 20 in
// English, each with the tool or tools that rightly answer it, so that the ranking can be
// measured once on requests nobody tuned it to.
//
// Written blind on 2026-12-03 by session h90. Its writer did not open internal/find (code,
// tests, testdata, paraphrases.json, lexicon), the end-to-end tests about find,
// BENCHMARKS.md, the lead's notes or other worktrees, and ran neither aeat_mcp_find nor the
// ranker nor its tests; no request reuses or rewords the three quoted in issue 28. What was
// read: the CLI's tree and help (testdata/aeat-cli/commands.json and help.json), the tool
// names and descriptions of examples/aeat.full.manifest.json, and the CLI's how-to guides,
// reference pages and source at cadrumo d08c5edf.
//
// Personas, none used by earlier sets: software freelancer billing a German client,
// pharmacist, hotel-apartment owner, graphic novelist with royalties, Uber/VTC driver,
// gardener, person who only speaks in short commands, foreigner writing Spanish as a second
// language, parent of a disabled child, older autónomo about to retire, merchant sailor and
// dog groomer.
//
// Ten requests are harder (indirect wording, a synonym the help does not use, a question or
// a goal instead of an action), two are long messages with the request buried, and a few
// carry the typos real people make. Every wanted name is a tool of the full manifest; why
// each is right, with the CLI's help line and file:line at d08c5edf, is in
// testdata/find/sealed22-justification.md. Measured once by the lead: see TestRank_HeldOut.
var heldOutSealed22 = []rankRequest{
	// Spanish.
	{"Apunta la factura que le he emitido a mi cliente de Múnich, Kunde GmbH: 4.800 € por desarrollo de software, servicio intracomunitario sin IVA.", []string{"app_ledger_invoice_add"}},
	{"Necesito el fichero para subir el 303 del segundo trimestre a la sede.", []string{"app_modelo_export"}},
	{"Valora las existencias de la farmacia a cierre del ejercicio 2026 por FIFO y dime el coste de ventas.", []string{"app_ledger_inventory_valuation_preview"}},
	{"En el edificio tengo apartamentos turísticos con servicios de tipo hotel y también pisos alquilados por meses como vivienda, que van exentos. La gestoría dice que este año solo puedo deducirme el 72 % del IVA soportado. ¿Cómo lo dejo apuntado?", []string{"app_ledger_prorrata_elect_general"}},
	{"¿Cuánto IVA a compensar me queda arrastrado de trimestres anteriores y cuándo caduca?", []string{"app_modelo_iva_wallet_balance", "app_live_iva_wallet_history"}},
	{"Buenas tardes. Llevo tres apartamentos turísticos en Benidorm y este verano ha sido una locura: la lavandería subió precios en julio y encima se estropeó el aire de uno de ellos. Total, que tengo todas las facturas de proveedores escaneadas en PDF en una carpeta del portátil, unas sesenta. ¿Puedes meterlas todas de una vez para que luego las revise?", []string{"app_ledger_evidence_batch"}},
	{"¿Cuánto me toca adelantar a Hacienda en el 130 del tercer trimestre? Calcúlalo con lo que hay en el libro.", []string{"app_modelo_work_calculate", "app_modelo_work_create"}},
	{"Mi gestora quiere echarle un ojo a todo antes de que presente el 130 del cuarto trimestre: prepárale algo que pueda abrir con el borrador y los justificantes de los gastos.", []string{"app_modelo_review_package_build"}},
	{"Descárgame de la AEAT las declaraciones que ya presenté en 2023 y 2024, con los importes de cada casilla.", []string{"filed_pull", "app_live_filed_pull_all"}},
	{"El coche lo uso un 80 % para el VTC y un 20 % personal: guarda esa proporción fija para la categoría del vehículo.", []string{"app_ledger_ratios_set"}},
	{"quiero q todos los cargos de repsol se clasifiquen solos como gasto de conbustible del negocio, sin tener q hacerlo uno a uno", []string{"app_ledger_rule_add"}},
	{"Enlaza el cobro de Cabify del 3 de marzo con mi factura F-2026-014.", []string{"app_ledger_link"}},
	{"Guarda la foto del tique de la desbrozadora nueva como justificante de compra, 349 € con IVA.", []string{"app_ledger_evidence_add"}},
	{"deshacer archivado mov 9c1e", []string{"app_ledger_restore"}},
	{"cambiar contraseña certificado fnmt", []string{"certificate_secret_set"}},
	{"Hola, soy alemana y mi español no es perfecto. Mi vecino dice que Hacienda manda cartas por internet a un buzón electrónico. ¿Puedes mirar si hay algo nuevo para mí allí?", []string{"notifications_pull"}},
	{"Yo tengo deuda con Hacienda? Quiero ver que dinero debo todavía pendiente.", []string{"debts_list", "app_live_deudas_latest"}},
	{"Mi hija tiene reconocida una discapacidad del 33 %. ¿Está eso ya metido para la renta? Enséñame qué hijos tengo declarados y con qué datos.", []string{"config_profile_descendiente_list"}},
	{"Me jubilo en diciembre y cierro el negocio. Antes de nada: ¿me he dejado algún trimestre sin presentar en los últimos doce meses?", []string{"app_overview_backlog", "overview_agenda"}},
	{"Soy marinero en un mercante con bandera española inscrito en el RETMAR. ¿Qué parte de mi sueldo queda exenta del IRPF? Quiero verlo antes de hacer la renta.", []string{"app_modelo_w_preview_maritime_exemption"}},
	// English.
	{"Before I invoice a new GmbH in Hamburg, can you check that their EU VAT number DE287654321 is actually valid?", []string{"app_live_verify_nif_iva"}},
	{"Every time I log a document from my Berlin client the tool asks me again where they're based. Tell it once and for all: they're established in Germany and VAT-registered there.", []string{"app_ledger_counterparty_confirm"}},
	{"I put the wrong figure in the Q1 303 I already filed at the sede. Walk me through correcting it as a complementaria.", []string{"app_modelo_work_amend_wizard", "app_modelo_work_amend"}},
	{"I got married in May. Would my husband and I come out cheaper filing our renta together or each on our own?", []string{"app_modelo_work_compare_taxation"}},
	{"Does my pharmacy actually have to file the modelo 347 this year, and on what grounds?", []string{"app_overview_explain"}},
	{"We spent 60k refurbishing the aparthotel's reception. Register it as a capital good so its IVA gets regularised over the coming years.", []string{"app_ledger_bienes_inversion_declare"}},
	{"Quick context: my publisher in Barcelona pays my royalties twice a year and keeps 15% withholding, and this spring I did a signing tour in France, which was its own adventure with the train strikes. Anyway, the actual question: for my Q3 modelo 130, which boxes do I have to fill in by hand and which ones come from my ledger automatically?", []string{"app_modelo_requires", "app_modelo_casillas"}},
	{"I want to play with a what-if - reclassify a few of my comic-con expenses and see what it does to my 130 - without touching my real books. Set me up somewhere safe to try it.", []string{"config_profile_sandbox_create"}},
	{"Only part of yesterday's fuel charge was for my Uber shifts, the rest was a family trip. Put the business share on that transaction.", []string{"app_ledger_allocate", "app_ledger_split"}},
	{"That 500 euro Bolt transfer in March was money I moved between my own accounts, not income. Keep it out of every return on purpose.", []string{"app_ledger_exclude", "app_ledger_classify"}},
	{"split transaction 4f2a: 300 for tools, 120 personal", []string{"app_ledger_split"}},
	{"My accountant wants proof that my 2024 income tax return was actually received by Hacienda. Can you fetch that for me?", []string{"justificante_pull"}},
	{"export ledger 2025 csv", []string{"app_ledger_export"}},
	{"cert expiry?", []string{"config_auth_certificate_check", "config_auth_test"}},
	{"Add my son to my profile: born 2 March 2014, 65% disability, lives with me. It should count for the renta.", []string{"config_profile_descendiente_add"}},
	{"Yesterday I filed the 036 at the sede to close down my business. Note that in my records.", []string{"app_modelo_m036_baja"}},
	{"Make me a complete encrypted backup of everything before I hand this laptop back to my son.", []string{"config_profile_archive_export"}},
	{"set up thos recovery words incase i forget my pasword", []string{"config_recovery_create"}},
	{"Has Hacienda already put up the pre-filled draft of my 2025 income tax? Show me the latest one.", []string{"app_live_borrador_100_latest"}},
	{"I'm taking three months off to travel, 1 Feb to 30 Apr 2027. Lay out the filing calendar for exactly those dates, with public holidays taken into account, so I can get things done before I leave.", []string{"app_overview_calendar"}},
}
