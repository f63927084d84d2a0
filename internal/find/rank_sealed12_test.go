package find

// heldOutSealed12 is sealed request set 12 for aeat_mcp_find (issue 28 item 5): 40
// requests, 20 in Spanish and 20 in English, written blind by a helper engineer
// (brief h49) as the measure of "the right tool in the first three for requests the
// ranking was not tuned to".
//
// Rules kept while writing it: the author did not open paraphrases.json, lexicon.go,
// rank*.go, rank_test.go (beyond the four lines defining rankRequest),
// rank_sealed*_test.go, testdata/find/, any e2e test about find, BENCHMARKS.md or any
// closing note or report; did not run aeat_mcp_find, the ranker or any test; did not
// reuse or reword the three requests quoted in issue 28 item 5. The wording and the
// wanted tools come only from the CLI's tree and help (testdata/aeat-cli/commands.json,
// help.json), the tool names of examples/aeat.full.manifest.json, the facts, and the
// CLI's own source and how-to guides (cadrumo at d08c5edf).
//
// Personas (none used by earlier sets): a young employee with a small freelance side
// income filing the Renta with deductions; an autónomo who invoices and applies or
// suffers retenciones; someone closing the business or changing regime; someone who
// set the CLI up on a new computer and wants their data and profile back; a family
// member helping an older relative under a power of attorney; a user typing in a
// hurry on a phone. About ten are harder (indirect wording, a synonym the help does
// not use, a question, a goal instead of an action). Each want lists every tool that
// correctly serves the request; sealed12-justification.md gives the reasons.
//
// This set was not run before it was committed. The lead measured it once,
// blind, on 2026-12-02: 29 of 40 with round nine's ranking (main 3343587) and
// 31 with round ten's (h48 a9453b4), each written before the set was seen;
// then it became a floor of TestRank_HeldOut.
var heldOutSealed12 = []rankRequest{
	// Spanish.
	{"En la empresa nueva me piden que les pase mis datos personales y familiares para calcularme bien la retención de la nómina, ¿cómo lo preparo?", []string{"app_modelo_m145_create", "app_modelo_m145_export"}},
	{"Además de la nómina doy clases particulares los fines de semana, ¿tengo que presentar el modelo 130 por eso?", []string{"app_overview_explain"}},
	{"¿Qué casillas de la renta tengo que rellenar yo a mano y cuáles se rellenan solas?", []string{"app_modelo_requires", "app_modelo_bindings_list"}},
	{"Me compré una tableta gráfica que uso mitad para los encargos de diseño y mitad para mí, ¿cómo lo apunto para que solo cuente la parte del trabajo?", []string{"app_ledger_classify", "app_ledger_allocate"}},
	{"Registra la factura que le he hecho a un cliente: 2.000 euros de base con IVA y retención del 15%", []string{"app_ledger_invoice_add", "app_ledger_invoice_wizard"}},
	{"Tengo todas las facturas emitidas del año en un Excel, ¿puedo meterlas de golpe?", []string{"app_ledger_invoice_import"}},
	{"Ya me ha llegado la transferencia del cliente, quiero asociarla a su factura", []string{"app_ledger_link"}},
	{"A casi todo lo que facturo ya me practican retención los clientes; ¿me libro de los pagos fraccionados trimestrales?", []string{"app_overview_explain", "config_profile_edit"}},
	{"He presentado en la sede la baja de mi actividad con el 036, ¿cómo lo dejo registrado aquí?", []string{"app_modelo_m036_baja"}},
	{"A partir de enero dejo módulos y paso a estimación directa, cámbialo en mi perfil", []string{"config_profile_edit"}},
	{"Voy a cerrar el negocio: ¿me he dejado algún trimestre sin presentar este último año?", []string{"app_overview_backlog"}},
	{"¿Cuánto IVA me queda pendiente de compensar de trimestres anteriores?", []string{"app_modelo_iva_wallet_balance", "app_live_iva_wallet_pull", "app_live_iva_wallet_history"}},
	{"Exporta todos los movimientos del libro de 2025 a un fichero para guardarlos cuando cierre", []string{"app_ledger_export"}},
	{"Tengo la copia de seguridad cifrada que hice en el portátil viejo; quiero recuperar mi perfil en este ordenador", []string{"config_profile_archive_import", "config_profile_import"}},
	{"¿A este ordenador le falta algo por instalar para que funcione todo?", []string{"config_check"}},
	{"Mi madre me ha dado un apoderamiento en Hacienda para su renta, ¿cómo lo configuro?", []string{"config_auth_apoderado_configure"}},
	{"¿A mis padres les sale más barato hacer la renta juntos o cada uno por su lado?", []string{"app_modelo_work_compare_taxation"}},
	{"cuanto debo a hacienda", []string{"app_live_deudas_latest", "debts_list", "app_live_deudas_view"}},
	{"cuando caduca mi certificado", []string{"config_auth_certificate_check", "config_auth_test"}},
	{"ver borrador renta de mi padre", []string{"app_live_borrador_100_latest", "app_live_borrador_100_list", "app_live_borrador_100_view"}},
	// English.
	{"My employer's withholding certificate says they already took 2,400 off my pay for tax, where do I put that in my income tax return?", []string{"app_modelo_work_wizard", "app_modelo_work_calculate"}},
	{"What does box 0019 on the Renta mean and how is it worked out?", []string{"app_modelo_casilla", "app_modelo_formulas"}},
	{"I did a translation job for an agency and they kept 15% back for tax, how do I record that income?", []string{"app_ledger_invoice_add", "app_ledger_invoice_wizard", "app_ledger_add"}},
	{"Check that my 2025 income tax return is complete before I file it", []string{"app_modelo_work_verify", "app_modelo_readiness"}},
	{"I need the file to upload my Renta on the Agencia Tributaria website", []string{"app_modelo_export"}},
	{"Every Adobe charge on my card should count as a business software expense without me doing it each time", []string{"app_ledger_rule_add"}},
	{"I forgot to put the IRPF withholding on one of my invoices, how do I fix it?", []string{"app_ledger_invoice_update"}},
	{"invoices i sent this quarter", []string{"app_ledger_invoice_list"}},
	{"I've started paying a freelance illustrator and holding back 15% of her fees, make sure that's reflected so I file what I need to", []string{"config_profile_edit"}},
	{"Put together a package my accountant can review before I submit the VAT return", []string{"app_modelo_review_package_build"}},
	{"Download the official receipt for the quarterly return I filed last month", []string{"justificante_pull", "app_modelo_reconcile_pull"}},
	{"I'm winding down the shop, how much stock is left and what's my cost of goods sold for the year?", []string{"app_ledger_inventory_valuation_preview"}},
	{"The last VAT return I filed had a mistake, I need to file a corrected one", []string{"app_modelo_work_amend_wizard", "app_modelo_work_amend"}},
	{"The business is closed, remove my profile and all its data from this laptop", []string{"config_profile_delete", "config_reset_start"}},
	{"Before I switch to my new laptop, make an encrypted backup of everything", []string{"config_profile_archive_export"}},
	{"Where does aeat keep my data on this machine?", []string{"config_storage_list", "config_storage_show"}},
	{"I copied my .p12 certificate to the new computer, how do I point the tool at it?", []string{"config_auth_configure", "config_auth_certificate_register"}},
	{"Has my grandmother got any letters from the tax office in her electronic inbox?", []string{"notifications_pull", "app_live_notifications_latest", "app_live_notifications_list"}},
	{"switch over to my dad's profile", []string{"config_login"}},
	{"split one payment into 2 expenses", []string{"app_ledger_split"}},
}
