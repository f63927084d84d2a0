package generate

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBaseName(t *testing.T) {
	for _, tc := range []struct {
		path []string
		want string
	}{
		{[]string{"app", "ledger", "list"}, "app_ledger_list"},
		{[]string{"config", "profile", "sandbox", "discard"}, "config_profile_sandbox_discard"},
		{[]string{"app", "live", "iva-wallet", "pull-history"}, "app_live_iva_wallet_pull_history"},
		{[]string{"Get", "User.Name", "--x--"}, "get_user_name_x"},
		{[]string{"--"}, "cmd"},
		{[]string{"aeat-mcp", "wait"}, "cli_aeat_mcp_wait"},
		// Too long: middle words become initials from the verb's end back,
		// keeping the family's prefix and the verb's last word.
		{[]string{"app", "modelo", "review-package", "encrypt-for-recipient"}, "app_modelo_rp_encrypt_for_recipient"},
		{[]string{"app", "modelo", "work", "preview-maritime-exemption"}, "app_modelo_w_preview_maritime_exemption"},
		{[]string{"application", "modelo-tributario", "review-package", "encrypt-for-the-recipient"}, "a_mt_rp_encrypt_for_the_recipient"},
	} {
		t.Run(strings.Join(tc.path, " "), func(t *testing.T) {
			got := baseName(tc.path, NameMax)
			assert.Equal(t, tc.want, got)
			assert.LessOrEqual(t, len(got), NameMax)
		})
	}
	long := []string{"x", strings.Repeat("very-long-verb-", 5)}
	got := baseName(long, NameMax)
	assert.Len(t, got, NameMax, "cut, with a hash of the path")
	assert.Regexp(t, `^x_very_long_verb_very_long_verb_[0-9a-f]{8}$`, got)
	assert.NotEqual(t, got, baseName([]string{"x", strings.Repeat("very-long-verb-", 6)}, NameMax), "two long paths stay apart")
	assert.Equal(t, 40, NameMax, "the loader's budget: 24 characters left of the 64 models take for a host's prefix")
}

func TestAssignNames(t *testing.T) {
	mk := func(paths ...[]string) []*candidate {
		var out []*candidate
		for _, p := range paths {
			out = append(out, &candidate{path: p})
		}
		return out
	}
	// Listed in another order than sorted: the names do not depend on it.
	cands := mk([]string{"a", "b-c"}, []string{"a-b", "c"}, []string{"a", "b", "c"}, []string{"z"})
	notes := assignNames(cands)
	assert.Equal(t, "a_b_c_2", cands[0].name)
	assert.Equal(t, "a_b_c_3", cands[1].name)
	assert.Equal(t, "a_b_c", cands[2].name, "the first path in sorted order keeps the name")
	assert.Equal(t, "z", cands[3].name)
	assert.Equal(t, []string{
		`"a b c" and "a b-c" both make the name a_b_c: the second is a_b_c_2`,
		`"a b c" and "a-b c" both make the name a_b_c: the second is a_b_c_3`,
	}, notes)

	// A collision at the budget keeps the suffix within it.
	long := []string{"app", "modelo", "review-package", "encrypt-for-recipient-now"}
	other := []string{"app", "modelo", "review_package", "encrypt-for-recipient-now"}
	cands = mk(long, other)
	assignNames(cands)
	assert.NotEqual(t, cands[0].name, cands[1].name)
	for _, c := range cands {
		assert.LessOrEqual(t, len(c.name), NameMax, c.name)
	}
}

func TestParamName(t *testing.T) {
	assert.Equal(t, "dry_run", optName("--dry-run"))
	assert.Equal(t, "", optName("-n"))
	assert.Equal(t, "_2fa", paramName("2fa"))
	assert.Equal(t, "a_b", paramName("a.b"))
}
