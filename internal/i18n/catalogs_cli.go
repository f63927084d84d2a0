package i18n

import "golang.org/x/text/language"

// The messages about what the real CLI means (docs/manifest.md, "`cli`"): its own
// error document and remedy, and the secrets it reads from the OS
// keychain. Kept apart from catalogs.go so the two grow without stepping on
// each other; catalogs merges them in, and TestCatalogsComplete holds them to
// the same rules.
const (
	MissingSecret       Key = "call.missing_secret"
	KeychainUnavailable Key = "call.keychain_unavailable"
	SecretUnusable      Key = "call.secret_unusable"
	CLISays             Key = "call.cli_says"
	CLIRemedy           Key = "call.cli_remedy"
	CLIErrorCut         Key = "call.cli_error_cut"
	// SecretFromEnv and SecretFromKeychain say where aeat-mcp took a
	// secret the CLI's failure is about: the environment wins over the
	// keychain, so a wrong value is corrected where it came from.
	SecretFromEnv      Key = "call.secret_from_env"
	SecretFromKeychain Key = "call.secret_from_keychain"
)

// cliCatalogs are merged into catalogs when those are first built.
func cliCatalogs() map[language.Tag]map[Key]string {
	return map[language.Tag]map[Key]string{
		language.English: {
			MissingSecret:       "%[1]s cannot run: the CLI needs the secret %[2]s, which is neither in the OS keychain nor in aeat-mcp's environment. Ask the user to store it once, in a terminal: %[3]s (or to set it in the \"env\" block of this server in the MCP host's configuration). A secret stored in the keychain is read at the next call: no restart is needed.",
			KeychainUnavailable: "%[1]s cannot run: the CLI needs the secret %[2]s, and the OS keychain could not be read (%[3]s). Ask the user to unlock the keychain, or to set %[2]s in the \"env\" block of this server in the MCP host's configuration.",
			SecretUnusable:      "%[1]s cannot run: the secret %[2]s stored in the OS keychain holds a NUL byte, which the CLI's environment cannot carry. Ask the user to store it again, in a terminal: %[3]s.",
			CLISays:             "The CLI says: %[1]s",
			CLIRemedy:           "The CLI's own remedy: %[1]s",
			CLIErrorCut:         "The CLI's error report was longer than what aeat-mcp keeps of its error output (%[1]d bytes) and was cut; its end follows.",
			SecretFromEnv:       "aeat-mcp gave the CLI %[1]s from its own environment: the \"env\" block of this server in the MCP host's configuration (or the shell aeat-mcp was started from). That wins over the OS keychain, so the user corrects it there (or removes it); a value stored with `aeat-mcp secret set %[1]s` is not used while it is set.",
			SecretFromKeychain:  "aeat-mcp gave the CLI %[1]s from the OS keychain (stored with `aeat-mcp secret set %[1]s`); its own environment does not set it.",
		},
		language.Spanish: {
			MissingSecret:       "%[1]s no puede ejecutarse: la CLI necesita el secreto %[2]s, que no está ni en el llavero del sistema ni en el entorno de aeat-mcp. Pida al usuario que lo guarde una vez, en un terminal: %[3]s (o que lo defina en el bloque \"env\" de este servidor en la configuración MCP del anfitrión). Un secreto guardado en el llavero se lee en la siguiente llamada: no hace falta reiniciar.",
			KeychainUnavailable: "%[1]s no puede ejecutarse: la CLI necesita el secreto %[2]s y no se pudo leer el llavero del sistema (%[3]s). Pida al usuario que desbloquee el llavero, o que defina %[2]s en el bloque \"env\" de este servidor en la configuración MCP del anfitrión.",
			SecretUnusable:      "%[1]s no puede ejecutarse: el secreto %[2]s guardado en el llavero del sistema contiene un byte NUL, que el entorno de la CLI no puede llevar. Pida al usuario que lo guarde de nuevo, en un terminal: %[3]s.",
			CLISays:             "La CLI dice: %[1]s",
			CLIRemedy:           "El remedio que propone la CLI: %[1]s",
			CLIErrorCut:         "El informe de error de la CLI era más largo de lo que aeat-mcp conserva de su salida de error (%[1]d bytes) y se cortó; sigue su final.",
			SecretFromEnv:       "aeat-mcp pasó a la CLI %[1]s desde su propio entorno: el bloque \"env\" de este servidor en la configuración MCP del anfitrión (o el terminal desde el que se inició aeat-mcp). Ese valor prevalece sobre el llavero del sistema, así que el usuario debe corregirlo allí (o quitarlo); un valor guardado con `aeat-mcp secret set %[1]s` no se usa mientras esté definido.",
			SecretFromKeychain:  "aeat-mcp pasó a la CLI %[1]s desde el llavero del sistema (guardado con `aeat-mcp secret set %[1]s`); su propio entorno no lo define.",
		},
		language.Catalan: {
			MissingSecret:       "%[1]s no es pot executar: la CLI necessita el secret %[2]s, que no és ni al clauer del sistema ni a l'entorn d'aeat-mcp. Demaneu a l'usuari que el desi un cop, en un terminal: %[3]s (o que el defineixi al bloc \"env\" d'aquest servidor a la configuració MCP de l'amfitrió). Un secret desat al clauer es llegeix a la crida següent: no cal reiniciar.",
			KeychainUnavailable: "%[1]s no es pot executar: la CLI necessita el secret %[2]s i no s'ha pogut llegir el clauer del sistema (%[3]s). Demaneu a l'usuari que desbloquegi el clauer, o que defineixi %[2]s al bloc \"env\" d'aquest servidor a la configuració MCP de l'amfitrió.",
			SecretUnusable:      "%[1]s no es pot executar: el secret %[2]s desat al clauer del sistema conté un byte NUL, que l'entorn de la CLI no pot portar. Demaneu a l'usuari que el torni a desar, en un terminal: %[3]s.",
			CLISays:             "La CLI diu: %[1]s",
			CLIRemedy:           "El remei que proposa la CLI: %[1]s",
			CLIErrorCut:         "L'informe d'error de la CLI era més llarg del que aeat-mcp conserva de la seva sortida d'error (%[1]d bytes) i s'ha tallat; en segueix el final.",
			SecretFromEnv:       "aeat-mcp va passar a la CLI %[1]s des del seu propi entorn: el bloc \"env\" d'aquest servidor a la configuració MCP de l'amfitrió (o el terminal des del qual es va iniciar aeat-mcp). Aquest valor preval sobre el clauer del sistema, així que l'usuari l'ha de corregir allà (o treure'l); un valor desat amb `aeat-mcp secret set %[1]s` no s'utilitza mentre estigui definit.",
			SecretFromKeychain:  "aeat-mcp va passar a la CLI %[1]s des del clauer del sistema (desat amb `aeat-mcp secret set %[1]s`); el seu propi entorn no el defineix.",
		},
		Galician: {
			MissingSecret:       "%[1]s non pode executarse: a CLI precisa do segredo %[2]s, que non está nin no chaveiro do sistema nin no contorno de aeat-mcp. Pídalle ao usuario que o garde unha vez, nun terminal: %[3]s (ou que o defina no bloque \"env\" deste servidor na configuración MCP do anfitrión). Un segredo gardado no chaveiro lese na seguinte chamada: non fai falta reiniciar.",
			KeychainUnavailable: "%[1]s non pode executarse: a CLI precisa do segredo %[2]s e non se puido ler o chaveiro do sistema (%[3]s). Pídalle ao usuario que desbloquee o chaveiro, ou que defina %[2]s no bloque \"env\" deste servidor na configuración MCP do anfitrión.",
			SecretUnusable:      "%[1]s non pode executarse: o segredo %[2]s gardado no chaveiro do sistema contén un byte NUL, que o contorno da CLI non pode levar. Pídalle ao usuario que o garde de novo, nun terminal: %[3]s.",
			CLISays:             "A CLI di: %[1]s",
			CLIRemedy:           "O remedio que propón a CLI: %[1]s",
			CLIErrorCut:         "O informe de erro da CLI era máis longo do que aeat-mcp conserva da súa saída de erro (%[1]d bytes) e cortouse; segue o seu final.",
			SecretFromEnv:       "aeat-mcp pasoulle á CLI %[1]s desde o seu propio contorno: o bloque \"env\" deste servidor na configuración MCP do anfitrión (ou o terminal desde o que se iniciou aeat-mcp). Ese valor prevalece sobre o chaveiro do sistema, así que o usuario debe corrixilo alí (ou quitalo); un valor gardado con `aeat-mcp secret set %[1]s` non se usa mentres estea definido.",
			SecretFromKeychain:  "aeat-mcp pasoulle á CLI %[1]s desde o chaveiro do sistema (gardado con `aeat-mcp secret set %[1]s`); o seu propio contorno non o define.",
		},
		Basque: {
			MissingSecret:       "%[1]s ezin da exekutatu: CLIak %[2]s sekretua behar du, eta ez dago ez sistemaren giltzatakoan ez aeat-mcp-ren ingurunean. Eskatu erabiltzaileari behin gordetzeko, terminal batean: %[3]s (edo ostalariaren MCP konfigurazioko zerbitzari honen \"env\" blokean ezartzeko). Giltzatakoan gordetako sekretua hurrengo deian irakurtzen da: ez da berrabiarazi behar.",
			KeychainUnavailable: "%[1]s ezin da exekutatu: CLIak %[2]s sekretua behar du, eta ezin izan da sistemaren giltzatakoa irakurri (%[3]s). Eskatu erabiltzaileari giltzatakoa desblokeatzeko, edo %[2]s ostalariaren MCP konfigurazioko zerbitzari honen \"env\" blokean ezartzeko.",
			SecretUnusable:      "%[1]s ezin da exekutatu: sistemaren giltzatakoan gordetako %[2]s sekretuak NUL byte bat du, eta CLIaren inguruneak ezin du eraman. Eskatu erabiltzaileari berriro gordetzeko, terminal batean: %[3]s.",
			CLISays:             "CLIak dio: %[1]s",
			CLIRemedy:           "CLIak proposatzen duen konponbidea: %[1]s",
			CLIErrorCut:         "CLIaren errore-txostena aeat-mcp-k bere errore-irteeratik gordetzen duena baino luzeagoa zen (%[1]d byte) eta moztu egin da; amaiera dator jarraian.",
			SecretFromEnv:       "aeat-mcp-k %[1]s bere ingurunetik eman zion CLIari: ostalariaren MCP konfigurazioko zerbitzari honen \"env\" blokea (edo aeat-mcp abiarazi zen terminala). Balio horrek sistemaren giltzatakoaren gainetik egiten du, beraz erabiltzaileak bertan zuzendu behar du (edo kendu); `aeat-mcp secret set %[1]s` bidez gordetako balioa ez da erabiltzen hura ezarrita dagoen bitartean.",
			SecretFromKeychain:  "aeat-mcp-k %[1]s sistemaren giltzatakotik eman zion CLIari (`aeat-mcp secret set %[1]s` bidez gordea); bere inguruneak ez du ezartzen.",
		},
	}
}
