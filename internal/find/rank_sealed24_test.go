package find

// heldOutSealed24 is sealed request set 24 for aeat_mcp_find (issue 28 item 5: the right
// tool in the first three for at least 9 of 10 requests the ranking was not tuned to).
//
// Written blind by h92 on 2026-12-03 for the lead of session s48. Blind rules kept: nothing
// under internal/find was opened (code, tests, testdata, paraphrases, lexicon), nor the find
// e2e tests, BENCHMARKS.md, the lead's notes, other worktrees or earlier sealed sets; the
// ranker, its tests and aeat_mcp_find were never run; the three requests quoted in issue 28
// item 5 are neither reused nor reworded. What was read: the CLI's tree and help
// (testdata/aeat-cli/commands.json, help.json), the tool names and descriptions of
// examples/aeat.full.manifest.json, /work/shared/aeat-cli/facts.*, and the CLI's own docs
// (how-to, explanation, reference, docs/_sequences) and source at nevenincs/cadrumo@d08c5edf.
//
// 40 requests, 20 Spanish then 20 English, from personas new to the sets: a carpenter, a
// florist, a wedding planner, a lawyer, a newspaper-kiosk owner, a fisherman, a driving
// instructor, a person renting out a parking space, a research scientist paid by grants, a
// small online shop selling on marketplaces, a person who dictates by voice (run-on, no
// punctuation) and a manager who delegates in terse English. 13 are "harder" (indirect
// wording, a synonym the help does not use, a question or goal instead of an action, or a
// long message with the request buried); four carry real typos. A request lists two tools
// only where both truly answer it. Each want, its help line (en/es) and its file:line in
// the CLI's guides or source are in testdata/find/sealed24-justification.md.
//
// Nothing runs this set: the lead measures the ranking on it once.
var heldOutSealed24 = []rankRequest{
	{"Me he comprado una regruesadora de 6.000 euros para el taller y el gestor me dice que esa máquina hay que seguirla varios años por el IVA. ¿Cómo la dejo registrada?", []string{"app_ledger_bienes_inversion_declare"}},
	{"Quiero saber cuánto valen los tablones y el herraje que me quedan en el almacén a 31 de diciembre y el coste de lo que he vendido este año.", []string{"app_ledger_inventory_valuation_preview"}},
	{"Buenas, te cuento: llevo quince años de carpintero autónomo y este año he empezado a vender también muebles a medida por Instagram, y la verdad es que no me aclaro. Mi mujer dice que se lo deje todo al gestor pero me cobra un dineral. En fin, lo que te quería preguntar: para el pago fraccionado del primer trimestre, ¿qué datos tengo que meter yo a mano y cuáles saca solo el programa?", []string{"app_modelo_requires"}},
	{"Apunta en el control de existencias de la floristería la compra de 300 tallos de rosa al mayorista de Mercabarna.", []string{"app_ledger_inventory_movement_add"}},
	{"La furgoneta la uso para los repartos de la floristeria pero tambien los findes con la familia, como hago para que solo cuente la mitad del gasoil como gasto del negocio?", []string{"app_ledger_ratios_set", "app_ledger_allocate"}},
	{"Un pago de 3.000 € al catering cubre los menús de dos bodas distintas; necesito partir ese movimiento en dos importes.", []string{"app_ledger_split"}},
	{"Tengo en PDF la factura del fotógrafo de la boda de junio y quiero dejarla asociada al cargo del banco de ese pago como justificante.", []string{"app_ledger_attach", "app_ledger_evidence_add"}},
	{"Antes de mandar la minuta a un despacho de Bruselas quiero comprobar que su número de IVA europeo existe de verdad.", []string{"app_live_verify_nif_iva"}},
	{"Prepárale a mi asesora un paquete con el borrador del 303 del segundo trimestre y las facturas que lo respaldan, para que lo revise antes de presentarlo.", []string{"app_modelo_review_package_build"}},
	{"Presenté el 130 del tercer trimestre con un error en los gastos y tengo que hacer una complementaria.", []string{"app_modelo_work_amend_wizard", "app_modelo_work_amend"}},
	{"¿Le debo algo a Hacienda? Creo que me quedó una sanción del año pasado sin pagar.", []string{"debts_list", "app_live_deudas_latest"}},
	{"El año pasado se me pasaron varios trimestrales del quiosco; ¿cuáles siguen sin presentar y ya fuera de plazo?", []string{"app_overview_backlog"}},
	{"Faeno en un palangrero en caladeros internacionales más de medio año. ¿Cuánto me quitaría del IRPF lo de la exención de la gente del mar?", []string{"app_modelo_w_preview_maritime_exemption"}},
	{"me a llegado un sms de que tengo una notificacion nueva de hacienda en la direccion electronica, puedes mirar que me han mandado", []string{"notifications_pull", "app_live_notifications_latest"}},
	{"Me han renovado el certificado digital de la FNMT y tengo el .p12 nuevo; quiero que el programa use ese y no el caducado.", []string{"config_auth_certificate_register", "config_auth_certificate_select"}},
	{"Alquilo una plaza de garaje a un vecino por 80 € al mes. ¿De verdad estoy obligado a presentar el 303 por eso?", []string{"app_overview_explain"}},
	{"Mi segundo hijo nació en marzo; añádelo a mi perfil para que cuente en la declaración de la renta.", []string{"config_profile_descendiente_add"}},
	{"Tengo un Excel descargado de Amazon y Etsy con todas las facturas de venta del trimestre y quiero darlas de alta de golpe, no una a una.", []string{"app_ledger_invoice_import"}},
	{"vale a ver tengo una carpeta en el escritorio que se llama tickets llena de fotos de gasolina comidas con clientes y material y quiero que me las metas todas de una vez sin ir una por una y luego ya las reviso yo", []string{"app_ledger_evidence_batch"}},
	{"oye que la semana que viene me cambio de portátil y no quiero perder nada de lo que tengo en el programa hazme una copia de seguridad completa y cifrada que pueda llevarme al ordenador nuevo", []string{"config_profile_archive_export"}},
	{"Q2 VAT return. Ready to file? Yes or no.", []string{"app_modelo_readiness"}},
	{"Ledger to a spreadsheet for the accountant. Full year.", []string{"app_ledger_export"}},
	{"Recovery code: do we have one set up?", []string{"config_recovery_status"}},
	{"Get me the AEAT's stamped receipt for the Q3 130. The one with the CSV code.", []string{"justificante_pull"}},
	{"My postdoc is paid through a university research grant and HR wants the form where I tell them my family situation so they withhold the right amount. Can you prepare it?", []string{"app_modelo_m145_create"}},
	{"Show me the draft income tax return the tax agency pre-filled for me this year.", []string{"app_live_borrador_100_latest", "app_live_borrador_100_list"}},
	{"My husband and I both work at the institute. Would we pay less if we filed one return together instead of two?", []string{"app_modelo_work_compare_taxation"}},
	{"A neighbour pays me 90 euros every month by transfer for my parking space; make those payments get categorised automatically whenever they show up.", []string{"app_ledger_rule_add"}},
	{"I moved flat and already filed the change of tax address with the 036 at the sede; note that in my records.", []string{"app_modelo_m036_modificacion"}},
	{"How much VAT credit am I still carrying forward from earlier quarters that I can offset?", []string{"app_modelo_iva_wallet_balance", "app_live_iva_wallet_pull"}},
	{"All my supplier invoices land as PDFs in one Google Drive folder. Grab every one of them into the app.", []string{"app_ledger_pull_folder"}},
	{"Bit of context: I sell handmade candles on Amazon and Etsy, mostly in Spain with a few orders to France, and my gestor retired in January so this is the first time I do it myself. I've gone through everything for the first quarter and the numbers look right to me. What I need now is the file I upload on the tax agency website for the Q1 VAT return.", []string{"app_modelo_export"}},
	{"One reviewed payment in my bank feed is just a transfer between my own two accounts. Leave it out of every filing but keep it in the books.", []string{"app_ledger_exclude"}},
	{"Log an invoice I issued to a couple for their wedding coordination: 2,400 euros plus VAT.", []string{"app_ledger_invoice_add"}},
	{"can u show me a calender of all my tax dates from july to december, with the bank holidays taken into acount", []string{"app_overview_calendar"}},
	{"Download every return I have ever filed with the tax agency so the app has my whole history.", []string{"app_live_filed_pull_all", "filed_pull"}},
	{"When does my digital certificate run out? I don't want to get locked out in the middle of a quarter.", []string{"config_auth_certificate_check"}},
	{"the app keeps saying it cant reach the tax agency website, is it my internet or teh browser?", []string{"config_repair_connectivity"}},
	{"ok so before I touch anything real I want to play around with a copy of my stuff and try moving some expenses into the other quarter and see what happens to the numbers without messing up my actual profile can you set that up for me and then I'll tell you what to move", []string{"config_profile_sandbox_create"}},
	{"What does box 07 on the 130 mean, and which article of the law is it based on?", []string{"app_modelo_casilla"}},
}
