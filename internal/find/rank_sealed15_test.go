// Sealed request set 15 for aeat_mcp_find (issue 28 item 5), held out from ranking.
//
// Written blind by a helper engineer on 2026-12-02 from the CLI tree and help only
// (testdata/aeat-cli/commands.json, help.json, tool names in examples/aeat.full.manifest.json,
// shared facts). The writer did not open paraphrases.json, lexicon.go, rank*.go, earlier sealed
// sets, testdata/find, find e2e tests or BENCHMARKS.md, did not run aeat_mcp_find, the ranker or
// any test, and did not reuse the requests quoted in issue 28 item 5. Personas: a bar owner with
// staff and card payments, an architect/engineer on a mutualidad, a person renting a room or a
// holiday flat, a partner doing a couple's paperwork, someone correcting a filed return, and a
// gestoría user scripting the CLI. Not run before it was committed.
//
// The lead measured it once, blind, on 2026-12-02: 29 of 40 with round
// eleven's ranking (main 8454bed) and 29 with round twelve's (h55 5ee195c,
// never shown the set: it found "what do I have to type in myself for the
// rental part" and lost "one table for Q3 showing classification state");
// then it became a floor of TestRank_HeldOut, 70 in 100 (one request of
// slack). Round thirteen was tuned to it: 32 of 40, floor 75 (two of
// slack).

package find

var heldOutSealed15 = []rankRequest{
	// Spanish.
	{"Tengo un bar y el banco me da los extractos con todos los cobros del datáfono; quiero meterlos todos de golpe", []string{"ledger_import"}},
	{"¿Qué impuestos me tocan presentar este trimestre con el bar?", []string{"overview_agenda", "app_overview_calendar"}},
	{"He comprado una cafetera industrial de 4.000 euros para el bar, apúntala como bien de inversión", []string{"app_ledger_bienes_inversion_declare"}},
	{"Haz que todos los cargos de Makro se clasifiquen solos como compras de mercadería", []string{"app_ledger_rule_add"}},
	{"Soy arquitecto y cotizo a la mutualidad en vez de al RETA; prepárame el pago fraccionado del trimestre", []string{"app_overview_prepare", "app_modelo_work_create", "app_modelo_work_wizard"}},
	{"¿Por qué me dice que tengo que presentar el 130 si ya me retienen en las facturas?", []string{"app_overview_explain"}},
	{"Tengo la factura de la cuota de la mutualidad en PDF, guárdala como justificante del gasto", []string{"app_ledger_evidence_add"}},
	{"Alquilo una habitación de mi propio piso: ¿cómo meto que sólo una parte de la factura de la luz va al alquiler?", []string{"app_ledger_allocate", "app_ledger_ratios_set"}},
	{"Tengo un piso turístico y quiero saber si ya lo tengo todo listo para hacer la renta", []string{"app_modelo_readiness", "config_profile_preflight", "app_overview_prepare"}},
	{"Llevo los papeles de los dos; quiero dar de alta a mi mujer con su propio perfil aparte del mío", []string{"config_profile_create"}},
	{"¿Nos sale más barata la renta juntos o cada uno por su cuenta?", []string{"app_modelo_work_compare_taxation"}},
	{"Añade a nuestra hija pequeña, nació en marzo", []string{"config_profile_descendiente_add"}},
	{"Mi marido me ha dado poder para presentar sus impuestos, configúralo para actuar en su nombre", []string{"config_auth_apoderado_configure"}},
	{"Me equivoqué en los gastos del 303 que ya presenté y quiero corregirlo", []string{"app_modelo_work_amend_wizard", "app_modelo_work_amend"}},
	{"Bájame la declaración que presenté en julio para ver qué puse", []string{"filed_pull", "app_live_filed_pull_all"}},
	{"Necesito el justificante de la complementaria que mandé la semana pasada", []string{"justificante_pull", "app_live_justificante_list"}},
	{"Después de aquel error, ¿le sigo debiendo algo a Hacienda?", []string{"debts_list", "app_live_deudas_latest"}},
	{"Tengo tres camareros en nómina, toca presentar las retenciones del trimestre", []string{"app_overview_prepare", "app_modelo_work_create"}},
	{"Exporta el libro de movimientos de este cliente para mandarlo a la gestoría", []string{"app_ledger_export"}},
	{"Genera el fichero BOE del 303 ya verificado para subirlo a la sede", []string{"app_modelo_export"}},
	// English.
	{"Customers pay by card and the bank settles once a day; break one settlement into the sales and the card fee", []string{"app_ledger_split"}},
	{"Which of the bar's payments still haven't been sorted?", []string{"app_ledger_review", "app_review_queue", "ledger_status"}},
	{"Am I behind on anything I should already have filed?", []string{"app_overview_backlog", "overview_agenda"}},
	{"I snapped all the supplier invoices with my phone, they're in one folder - read them all in", []string{"app_ledger_evidence_batch"}},
	{"Which box of the income tax return does my mutualidad contribution go in?", []string{"app_modelo_casilla", "app_modelo_casillas"}},
	{"Record that I filed the 036 to register my engineering practice last month", []string{"app_modelo_m036_alta"}},
	{"A client in Germany wants an invoice; check their EU VAT number is valid first", []string{"app_live_verify_nif_iva", "app_live_verify_tgvi"}},
	{"Log the fee invoice I sent the developer for the housing project", []string{"app_ledger_invoice_add", "app_ledger_invoice_wizard"}},
	{"I've stopped letting the holiday flat as a business; record the census change I filed", []string{"app_modelo_m036_baja", "app_modelo_m036_modificacion"}},
	{"What do I have to type in myself for the rental part of my Renta?", []string{"app_modelo_requires"}},
	{"The guest paid me through Airbnb into my account, add that income by hand", []string{"app_ledger_add"}},
	{"Show me the draft return the tax agency has prepared for my partner", []string{"app_live_borrador_100_latest"}},
	{"Is my husband's profile complete, or is something missing?", []string{"config_profile_status", "config_profile_validate", "profile_show"}},
	{"Did anything arrive in my wife's electronic tax mailbox?", []string{"notifications_pull", "app_live_notifications_list"}},
	{"I already filed but put the wrong income; bring in the filed return so I can correct it", []string{"app_modelo_filing_record_import", "app_modelo_work_amend"}},
	{"List every return the agency has on record for me so I can find the one with the mistake", []string{"filed_list", "app_live_expedientes_pull"}},
	{"I want to try out the correction without touching my real data", []string{"config_profile_sandbox_create"}},
	{"Before moving a client to the office server, dump their whole profile to an encrypted backup file", []string{"config_profile_archive_export"}},
	{"bulk-create invoices for the current client from invoices.xlsx in a script", []string{"app_ledger_invoice_import"}},
	{"For the active client, one table for Q3 showing classification state and which modelos are calculated, verified or filed", []string{"app_overview_pipeline", "overview_status"}},
}
