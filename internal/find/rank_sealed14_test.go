// Sealed request set 14 for aeat_mcp_find (issue 28 item 5), held out from tuning.
//
// Written blind on 2026-12-02 by an engineer who had not seen how find ranks: no
// paraphrases.json, lexicon.go, rank*.go (beyond the four lines defining rankRequest),
// earlier sealed sets, testdata/find, find e2e tests, BENCHMARKS.md or any closing note
// were opened, and neither aeat_mcp_find, the ranker nor any test was run. The three
// requests quoted in issue 28 item 5 are not reused or reworded. Sources read: the CLI
// tree and help (testdata/aeat-cli/commands.json, help.json), tool names in
// examples/aeat.full.manifest.json, /work/shared/aeat-cli/facts.*, and the CLI's how-to
// guides at nevenincs/cadrumo d08c5edf.
//
// Personas (new to this set): a small shop owner under recargo de equivalencia, a
// translator/consultant invoicing clients in and outside the EU, a content creator paid
// by platforms, someone moving their books over from a spreadsheet or another app,
// someone dictating to a phone (no accents, run-on, filler), and a careful person who
// checks the state of everything first. 20 Spanish, 20 English; about twelve harder.
// Each want lists every tool that would correctly serve the request; the reasons are in
// sealed14-justification.md. This set was not run before it was committed.
//
// The lead measured it once, blind, on 2026-12-02: 28 of 40 with round
// eleven's ranking (main 3bcfaf7) and 30 with round twelve's (h55 5ee195c,
// written while the set was being written, never shown it); then it became
// a floor of TestRank_HeldOut, 72 in 100 (one request of slack). Round
// thirteen was tuned to it: 37 of 40, floor 87 (two of slack).

package find

var heldOutSealed14 = []rankRequest{
	// Spanish.
	{"Tengo una tienda de ropa en recargo de equivalencia y me ha llegado en PDF la factura del mayorista, ¿cómo la apunto?", []string{"app_ledger_evidence_add", "app_ledger_invoice_add"}},
	{"quiero abrir el control de existencias de la tienda para este año", []string{"app_ledger_inventory_create"}},
	{"He vendido género a otra tienda, apúntalo como salida de almacén", []string{"app_ledger_inventory_movement_add"}},
	{"¿Cuánto género me queda a fin de año y cuánto me costó lo que vendí?", []string{"app_ledger_inventory_valuation_preview"}},
	{"Antes de facturar a una agencia alemana quiero comprobar que su número de IVA europeo es válido", []string{"app_live_verify_nif_iva", "app_live_verify_tgvi"}},
	{"Registra la factura que le he hecho a un cliente de Francia por una traducción", []string{"app_ledger_invoice_add"}},
	{"¿Me toca presentar este trimestre la declaración de operaciones intracomunitarias?", []string{"app_overview_explain", "app_overview_calendar"}},
	{"Quiero dejar anotado que mi cliente de Suiza está establecido fuera de la UE", []string{"app_ledger_counterparty_confirm"}},
	{"Me pagan YouTube y Twitch, quiero sacar el IVA del trimestre", []string{"app_modelo_work_calculate", "app_modelo_work_wizard", "app_modelo_work_create"}},
	{"La mitad del móvil la uso para grabar vídeos y la otra mitad es personal, ¿cómo lo reflejo?", []string{"app_ledger_allocate", "app_ledger_ratios_set"}},
	{"Todos los meses me llega el pago de AdSense igual, quiero que se clasifique solo", []string{"app_ledger_rule_add", "app_ledger_rule_apply"}},
	{"Llevaba todas mis facturas en un Excel, ¿puedo meterlas de golpe?", []string{"app_ledger_invoice_import"}},
	{"Los trimestres anteriores los presenté con otro programa y me quedó IVA a compensar, quiero que se tenga en cuenta", []string{"app_modelo_iva_wallet_seed", "app_live_iva_wallet_pull_history", "app_modelo_iva_wallet_override"}},
	{"Quiero registrar aquí la renta que ya presenté el año pasado por mi cuenta como punto de partida", []string{"app_modelo_filing_record_import"}},
	{"eh vale pues apuntame un gasto de gasolina de cuarenta euros de ayer de la furgo", []string{"app_ledger_add"}},
	{"mira necesito saber si tengo alguna deuda con hacienda pendiente o algo asi", []string{"app_live_deudas_latest", "app_live_deudas_view", "debts_list"}},
	{"bueno a ver el cargo de amazon de la semana pasada eran dos cosas una de la tienda y otra mia asi que separalo", []string{"app_ledger_split", "app_ledger_allocate"}},
	{"Antes de tocar nada, dime cómo está todo: perfil, movimientos y declaraciones", []string{"overview_status", "app_overview_pipeline"}},
	{"¿Qué me falta para poder presentar el 130 del tercer trimestre?", []string{"app_modelo_readiness", "app_modelo_requires", "config_profile_preflight"}},
	{"¿Hay algún apunte raro o descuadrado en la contabilidad?", []string{"app_ledger_check", "app_ledger_preflight"}},
	// English.
	{"I run a small hardware shop under the equivalence surcharge. Where do I set that as my VAT regime?", []string{"config_profile_edit", "config_profile_create"}},
	{"Show me all the supplier bills I've scanned so far", []string{"app_ledger_evidence_list"}},
	{"The wholesaler's invoice I scanned came out with the wrong total, can I correct it?", []string{"app_ledger_evidence_update"}},
	{"Add the invoice I sent my US client for consulting work", []string{"app_ledger_invoice_add"}},
	{"The transfer from my London client is for invoice 2026-014, tie them together", []string{"app_ledger_link"}},
	{"Prepare my recapitulative statement of EU sales for Q2", []string{"app_modelo_work_create", "app_modelo_work_calculate", "app_modelo_work_wizard"}},
	{"Which tax forms am I actually supposed to be filing as a freelance translator?", []string{"app_overview_explain", "app_overview_calendar"}},
	{"Patreon paid me 830 euros this month, put that in as income", []string{"app_ledger_add"}},
	{"what categories can I put my camera gear and editing software under?", []string{"app_ledger_categories"}},
	{"I bought a 2,400 euro camera and need it tracked over the coming years for VAT", []string{"app_ledger_bienes_inversion_declare"}},
	{"I exported my books from Holded as a CSV, bring them in here", []string{"ledger_import"}},
	{"Before I load my old spreadsheet, can I try it somewhere that won't touch my real books?", []string{"config_profile_sandbox_create", "config_profile_duplicate"}},
	{"apply my rules to everything I imported that still has no category", []string{"app_ledger_rule_apply"}},
	{"uh so did I forget to file anything like is there stuff overdue from last year", []string{"app_overview_backlog", "overview_agenda"}},
	{"hey so my digital certificate thing expires soon i think can you check when it runs out", []string{"config_auth_certificate_check"}},
	{"ok so send the draft of the quarterly vat to my accountant so she can look at it before i file", []string{"app_modelo_review_package_build", "app_modelo_rp_encrypt_for_recipient"}},
	{"Before I change anything, make a full backup of my profile", []string{"config_profile_archive_export"}},
	{"Check that my draft Q3 VAT return is complete and consistent before I go any further", []string{"app_modelo_work_verify", "app_modelo_readiness"}},
	{"What exactly has happened to my Q3 VAT return since I started it?", []string{"app_modelo_work_history", "app_modelo_history"}},
	{"Has anything been filed in my name at the tax agency that I don't know about?", []string{"app_live_filed_pull_all", "filed_list", "app_live_expedientes_pull"}},
}
