package i18n

import "golang.org/x/text/language"

// The messages about what the real CLI means (docs/manifest.md, "`cli`"): its own
// error document and remedy, and the secrets it reads from the OS
// keychain. Kept apart from catalogs.go so the two grow without stepping on
// each other; init merges them in, and TestCatalogsComplete holds them to
// the same rules.
const (
	MissingSecret       Key = "call.missing_secret"
	KeychainUnavailable Key = "call.keychain_unavailable"
	CLISays             Key = "call.cli_says"
	CLIRemedy           Key = "call.cli_remedy"
	CLIErrorCut         Key = "call.cli_error_cut"
)

var cliCatalogs = map[language.Tag]map[Key]string{
	language.English: {
		MissingSecret:       "%[1]s cannot run: the CLI needs the secret %[2]s, which is neither in the OS keychain nor in aeat-mcp's environment. Ask the user to store it once, in a terminal: %[3]s (or to set it in the \"env\" block of this server in the MCP host's configuration). A secret stored in the keychain is read at the next call: no restart is needed.",
		KeychainUnavailable: "%[1]s cannot run: the CLI needs the secret %[2]s, and the OS keychain could not be read (%[3]s). Ask the user to unlock the keychain, or to set %[2]s in the \"env\" block of this server in the MCP host's configuration.",
		CLISays:             "The CLI says: %[1]s",
		CLIRemedy:           "The CLI's own remedy: %[1]s",
		CLIErrorCut:         "The CLI's error report was longer than what aeat-mcp keeps of its error output (%[1]d bytes) and was cut; its end follows.",
	},
	language.Spanish: {
		MissingSecret:       "%[1]s no puede ejecutarse: la CLI necesita el secreto %[2]s, que no está ni en el llavero del sistema ni en el entorno de aeat-mcp. Pida al usuario que lo guarde una vez, en un terminal: %[3]s (o que lo defina en el bloque \"env\" de este servidor en la configuración MCP del anfitrión). Un secreto guardado en el llavero se lee en la siguiente llamada: no hace falta reiniciar.",
		KeychainUnavailable: "%[1]s no puede ejecutarse: la CLI necesita el secreto %[2]s y no se pudo leer el llavero del sistema (%[3]s). Pida al usuario que desbloquee el llavero, o que defina %[2]s en el bloque \"env\" de este servidor en la configuración MCP del anfitrión.",
		CLISays:             "La CLI dice: %[1]s",
		CLIRemedy:           "El remedio que propone la CLI: %[1]s",
		CLIErrorCut:         "El informe de error de la CLI era más largo de lo que aeat-mcp conserva de su salida de error (%[1]d bytes) y se cortó; sigue su final.",
	},
	language.Catalan: {
		MissingSecret:       "%[1]s no es pot executar: la CLI necessita el secret %[2]s, que no és ni al clauer del sistema ni a l'entorn d'aeat-mcp. Demaneu a l'usuari que el desi un cop, en un terminal: %[3]s (o que el defineixi al bloc \"env\" d'aquest servidor a la configuració MCP de l'amfitrió). Un secret desat al clauer es llegeix a la crida següent: no cal reiniciar.",
		KeychainUnavailable: "%[1]s no es pot executar: la CLI necessita el secret %[2]s i no s'ha pogut llegir el clauer del sistema (%[3]s). Demaneu a l'usuari que desbloquegi el clauer, o que defineixi %[2]s al bloc \"env\" d'aquest servidor a la configuració MCP de l'amfitrió.",
		CLISays:             "La CLI diu: %[1]s",
		CLIRemedy:           "El remei que proposa la CLI: %[1]s",
		CLIErrorCut:         "L'informe d'error de la CLI era més llarg del que aeat-mcp conserva de la seva sortida d'error (%[1]d bytes) i s'ha tallat; en segueix el final.",
	},
	Galician: {
		MissingSecret:       "%[1]s non pode executarse: a CLI precisa do segredo %[2]s, que non está nin no chaveiro do sistema nin no contorno de aeat-mcp. Pídalle ao usuario que o garde unha vez, nun terminal: %[3]s (ou que o defina no bloque \"env\" deste servidor na configuración MCP do anfitrión). Un segredo gardado no chaveiro lese na seguinte chamada: non fai falta reiniciar.",
		KeychainUnavailable: "%[1]s non pode executarse: a CLI precisa do segredo %[2]s e non se puido ler o chaveiro do sistema (%[3]s). Pídalle ao usuario que desbloquee o chaveiro, ou que defina %[2]s no bloque \"env\" deste servidor na configuración MCP do anfitrión.",
		CLISays:             "A CLI di: %[1]s",
		CLIRemedy:           "O remedio que propón a CLI: %[1]s",
		CLIErrorCut:         "O informe de erro da CLI era máis longo do que aeat-mcp conserva da súa saída de erro (%[1]d bytes) e cortouse; segue o seu final.",
	},
	Basque: {
		MissingSecret:       "%[1]s ezin da exekutatu: CLIak %[2]s sekretua behar du, eta ez dago ez sistemaren giltzatakoan ez aeat-mcp-ren ingurunean. Eskatu erabiltzaileari behin gordetzeko, terminal batean: %[3]s (edo ostalariaren MCP konfigurazioko zerbitzari honen \"env\" blokean ezartzeko). Giltzatakoan gordetako sekretua hurrengo deian irakurtzen da: ez da berrabiarazi behar.",
		KeychainUnavailable: "%[1]s ezin da exekutatu: CLIak %[2]s sekretua behar du, eta ezin izan da sistemaren giltzatakoa irakurri (%[3]s). Eskatu erabiltzaileari giltzatakoa desblokeatzeko, edo %[2]s ostalariaren MCP konfigurazioko zerbitzari honen \"env\" blokean ezartzeko.",
		CLISays:             "CLIak dio: %[1]s",
		CLIRemedy:           "CLIak proposatzen duen konponbidea: %[1]s",
		CLIErrorCut:         "CLIaren errore-txostena aeat-mcp-k bere errore-irteeratik gordetzen duena baino luzeagoa zen (%[1]d byte) eta moztu egin da; amaiera dator jarraian.",
	},
}

func init() {
	for tag, msgs := range cliCatalogs {
		for k, v := range msgs {
			catalogs[tag][k] = v
		}
	}
}
