package i18n

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
)

var verbRE = regexp.MustCompile(`%\[\d+\][a-zA-Z]`)

func placeholders(s string) []string {
	v := verbRE.FindAllString(s, -1)
	sort.Strings(v)
	return v
}

// TestCatalogsComplete: every key of the English reference is in every
// catalog, no catalog has keys English lacks, and placeholders match.
func TestCatalogsComplete(t *testing.T) {
	en := catalogs()[language.English]
	require.Len(t, catalogs(), len(Supported))
	for _, tag := range Supported {
		cat := catalogs()[tag]
		require.NotNil(t, cat, tag.String())
		for key, ref := range en {
			msg, ok := cat[key]
			if assert.True(t, ok, "%s lacks %s", tag, key) {
				assert.NotEmpty(t, msg, "%s %s", tag, key)
				assert.Equal(t, placeholders(ref), placeholders(msg), "%s %s: placeholders differ", tag, key)
			}
		}
		for key := range cat {
			assert.Contains(t, en, key, "%s has %s, which English lacks", tag, key)
		}
	}
}

func TestParse(t *testing.T) {
	tests := map[string]language.Tag{
		"es":             language.Spanish,
		"es_ES.UTF-8":    language.Spanish,
		"es-MX":          language.Spanish,
		"ca-ES-valencia": language.Catalan,
		"ca_ES@valencia": language.Catalan,
		"gl_ES.UTF-8":    Galician,
		"eu":             Basque,
		"eu_ES@euro":     Basque,
		"en_GB.UTF-8":    language.English,
		"fr_FR.UTF-8":    language.English,
		"C":              language.English,
		"POSIX":          language.English,
		"":               language.English,
		"!!":             language.English,
	}
	for in, want := range tests {
		assert.Equal(t, want, Parse(in).Tag(), in)
	}
}

func TestBase(t *testing.T) {
	for in, want := range map[string]string{
		"ES": "es", "es-ES": "es", "es_ES.UTF-8": "es", "ca_ES@valencia": "ca", "hu_HU": "hu", "de": "de",
		"C": "", "": "", "Spanish": "", "!!": "",
	} {
		got, ok := Base(in)
		assert.Equal(t, want, got, in)
		assert.Equal(t, want != "", ok, in)
	}
}

func TestFromLookup(t *testing.T) {
	env := func(kv map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := kv[k]; return v, ok }
	}
	assert.Equal(t, Basque, FromLookup(env(map[string]string{"AEAT_MCP_LANG": "eu", "LC_ALL": "es_ES.UTF-8"})).Tag())
	assert.Equal(t, language.Spanish, FromLookup(env(map[string]string{"LC_ALL": "es_ES.UTF-8", "LANG": "ca_ES.UTF-8"})).Tag())
	assert.Equal(t, language.Catalan, FromLookup(env(map[string]string{"LC_ALL": "C", "LANG": "ca_ES.UTF-8"})).Tag(), "C defers to the next variable")
	assert.Equal(t, Galician, FromLookup(env(map[string]string{"LC_MESSAGES": "gl_ES"})).Tag())
	assert.Equal(t, language.English, FromLookup(env(nil)).Tag())
}

// TestGoldenRefusals pins the main refusal in each language, as a user reads it.
func TestGoldenRefusals(t *testing.T) {
	golden := map[language.Tag]string{
		language.English: "The tool modelo_303_pull did not finish within the 420 s ceiling of its tier (live), so aeat-mcp stopped its whole process tree: the CLI and everything it had started, browser included. What to do: retry the call; if it times out again, run the CLI by hand to see where it stalls, or restart aeat-mcp with a higher --timeout-live.",
		language.Spanish: "La herramienta modelo_303_pull no terminó dentro del límite de 420 s de su nivel (en línea), así que aeat-mcp detuvo todo su árbol de procesos: la CLI y todo lo que había iniciado, navegador incluido. Qué hacer: reintente la llamada; si vuelve a agotar el tiempo, ejecute la CLI a mano para ver dónde se detiene, o reinicie aeat-mcp con un --timeout-live mayor.",
		language.Catalan: "L'eina modelo_303_pull no ha acabat dins del límit de 420 s del seu nivell (en línia), així que aeat-mcp n'ha aturat tot l'arbre de processos: la CLI i tot el que havia iniciat, navegador inclòs. Què cal fer: torneu a provar la crida; si torna a esgotar el temps, executeu la CLI a mà per veure on s'encalla, o reinicieu aeat-mcp amb un --timeout-live més alt.",
		Galician:         "A ferramenta modelo_303_pull non rematou dentro do límite de 420 s do seu nivel (en liña), así que aeat-mcp detivo toda a súa árbore de procesos: a CLI e todo o que iniciara, navegador incluído. Que facer: volva tentar a chamada; se volve esgotar o tempo, execute a CLI a man para ver onde se detén, ou reinicie aeat-mcp cun --timeout-live maior.",
		Basque:           "modelo_303_pull tresnak ez du amaitu bere mailaren (linean) 420 s-ko mugaren barruan; beraz, aeat-mcp-k bere prozesu-zuhaitz osoa gelditu du: CLIa eta hark abiarazitako guztia, nabigatzailea barne. Zer egin: saiatu berriro deiarekin; berriro denbora agortzen bada, exekutatu CLIa eskuz non gelditzen den ikusteko, edo berrabiarazi aeat-mcp --timeout-live handiago batekin.",
	}
	for tag, want := range golden {
		p := For(tag)
		assert.Equal(t, want, p.Sprintf(Timeout, "modelo_303_pull", p.Tier("live"), "420", "live"), tag.String())
	}
	es := For(language.Spanish)
	assert.Equal(t, "modelo_303_submit no se ejecutó: es destructiva y necesita su confirmación, pero este cliente MCP no puede pedirla. Para permitir herramientas destructivas sin preguntar, inicie aeat-mcp con --confirm=never.",
		es.Sprintf(RefusedCannotConfirm, "modelo_303_submit"))
	assert.Equal(t, "ledger_list falló: la CLI terminó con el código 3.", es.Sprintf(ExitCode, "ledger_list", 3))
	assert.Equal(t, `ledger_list no se ejecutó: el argumento "limit" no es válido: must be at least 1 (got 0). No se inició nada; corrija el argumento y vuelva a llamar.`,
		es.Sprintf(InvalidArguments, "ledger_list", "limit", "must be at least 1 (got 0)"))
}

func TestOfferedList(t *testing.T) {
	assert.Equal(t, "en, es, ca, gl, eu", OfferedList())
	for _, name := range strings.Split(OfferedList(), ", ") {
		assert.True(t, Offered(name), name)
	}
}
