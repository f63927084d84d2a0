package main

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// body runs the verb once every check passed: what it prints is made up,
// in the real envelope and with the real result's main keys; a verb that
// exits 2 after a success envelope does so when the real one would.
func (c *call) body() *refusal {
	if c.profile != "" && !c.v.Exempt {
		if r := c.injected(); r != nil {
			return r
		}
	}
	if strings.HasPrefix(c.path, "app live ") && c.path != "app live deudas list" {
		c.live() // deudas list reads stored snapshots: no preflight, no browser
	}
	p := c.st.Profiles[c.profile]
	switch c.path {
	case "app ledger list":
		rows := []any{
			map[string]any{"transaction_id": "7f3a9c", "date": "2025-01-15", "amount": "-121.00", "description": "Cuota autónomos", "review_status": "reviewed"},
			map[string]any{"transaction_id": "b41e07", "date": "2025-02-03", "amount": "1815.00", "description": "Factura 2025-004", "review_status": "pending"},
		}
		c.emit(map[string]any{"bucket_id": c.profile, "rows": rows, "total": 2, "shown": 2, "offset": 0, "limit": nil, "truncated": false})
	case "app ledger view":
		c.emit(map[string]any{"transaction": map[string]any{"transaction_id": c.args[0], "amount": "-121.00"}})
	case "app ledger status":
		c.emit(map[string]any{"bucket_id": c.profile, "total_count": 2, "pending_review_count": 1, "period": nilIfEmpty(c.one("--period"))})
	case "config profile list":
		var list []any
		for name := range c.st.Profiles {
			list = append(list, map[string]any{"label": name, "active": name == c.st.Active})
		}
		c.emit(map[string]any{"profiles": list})
	case "config profile show":
		return c.profileShow(p)
	case "config check":
		issues := []any{}
		for _, i := range p.CheckIssues {
			issues = append(issues, i)
		}
		c.emit(map[string]any{"profile_id": c.profile, "ok": len(issues) == 0, "capabilities": []any{}, "dependencies": []any{},
			"preflight": []any{}, "issues": issues})
		if len(issues) > 0 {
			return &refusal{exit: -2} // _check_cli.py:161: findings exit 2 after the envelope
		}
	case "config auth status":
		c.emit(c.authStatus(p))
	case "config profile create":
		return c.profileCreate()
	case "config login":
		return c.login()
	case "config logout":
		return c.logout()
	case "app modelo list":
		c.emit(map[string]any{"modelos": []any{map[string]any{"modelo": "303", "domain": "iva"}, map[string]any{"modelo": "130", "domain": "irpf"}}})
	case "app overview status":
		c.emit(map[string]any{"profile": c.profile, "transactions": 2, "work_units": 0})
	case "app overview agenda":
		c.emit(map[string]any{"next_due": map[string]any{"modelo": "303", "due": "2025-04-20"}, "overdue": []any{}})
	case "app ledger import":
		c.emit(map[string]any{"dry_run": c.has("--dry-run"), "imported": 3, "skipped": 0})
	case "app ledger remove":
		c.emit(map[string]any{"transaction_id": c.args[0], "removed": !c.has("--dry-run"), "dry_run": c.has("--dry-run")})
	case "config profile sandbox discard":
		c.emit(map[string]any{"name": c.args[0], "discarded": !c.has("--dry-run"), "dry_run": c.has("--dry-run")})
	case "config auth certificate secret set":
		return c.secretSet(p)
	case "app live filed list":
		c.emit(map[string]any{"row_count": 1, "rows": []any{map[string]any{"modelo": "303", "ejercicio": 2025, "periodo": "1T"}}})
	case "app live filed pull":
		c.emit(map[string]any{"captured_count": 1, "modelo": nilIfEmpty(c.one("--modelo")), "year": nilIfEmpty(c.one("--year"))})
	case "app live justificante pull":
		c.emit(map[string]any{"modelo": c.one("--modelo"), "filing_year": c.one("--year"), "period": c.one("--period"), "csv": "ABCD1234EFGH5678"})
	case "app live notifications pull":
		c.emit(map[string]any{"snapshot_id": "n-1", "row_count": 0, "captured_at": time.Now().UTC().Format(time.RFC3339)})
	case "app live deudas list":
		c.emit(map[string]any{"bucket_id": c.profile, "count": 0, "rows": []any{}}) // no verb pulls deudas in 0.2.2
	}
	return nil
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// profileShow: the profile's facts; exit 2 after the report when it has
// blocking issues, or when its record cannot be read — which, without a
// session (config profile show NAME skips the gate), is every time; its
// next_action is then a repair (_profile_readiness.py, _repair_profile.py).
func (c *call) profileShow(p *profile) *refusal {
	name := c.profile
	if len(c.args) > 0 {
		name = c.args[0]
		if _, ok := c.st.Profiles[name]; !ok {
			return &refusal{exit: 2, category: "REFUSED", code: "REFUSED_CLI_BOUNDARY", command: c.v.Command,
				message: fmt.Sprintf("Unknown profile: %s. Run 'aeat config profile list' to see registered profiles.", name),
				context: map[string]string{"name": name}}
		}
		if c.unlocked() != nil { // no session to read the encrypted record with
			next := "aeat config repair profile --profile " + name
			if name == c.st.Active {
				next = "aeat config repair profile --clear-active --yes"
			}
			c.emit(map[string]any{"profile_id": name, "display_name": name, "registered_bucket": true, "profile_record_present": false,
				"status": "profile_record_unreadable", "error": "NoActiveBucketSessionError: no session", "next_action": next})
			return &refusal{exit: -2}
		}
		p = c.st.Profiles[name]
	}
	issues := []any{}
	if p.Blocking {
		issues = append(issues, map[string]any{"severity": "error", "code": "tax.id.missing", "path": "tax.id", "message": "NIF missing"})
	}
	c.emit(map[string]any{"profile_id": name, "display_name": name, "valid": !p.Blocking, "issues": issues,
		"facts": []any{map[string]any{"path": "tax.regime", "value": "estimacion_directa"}}})
	if p.Blocking {
		return &refusal{exit: -2}
	}
	return nil
}

// secretSet stores the certificate's passphrase it read on stdin.
func (c *call) secretSet(p *profile) *refusal {
	name := c.one("--name")
	known := false
	for _, n := range p.Certificates {
		known = known || n == name
	}
	if !known {
		return &refusal{exit: 2, category: "REFUSED", code: "REFUSED_CLI_BOUNDARY", command: c.v.Command,
			message: fmt.Sprintf("Certificate source '%s' is not registered.", name)}
	}
	if c.st.Secrets == nil {
		c.st.Secrets = map[string]string{}
	}
	_, rotated := c.st.Secrets[name]
	c.st.Secrets[name] = c.stdinDoc["secret"]
	c.saveStore()
	if os.Getenv("CADRUMO_FAKE_ECHO_SECRET") == "1" {
		fmt.Fprintf(os.Stderr, "debug: stored secret %s for %s\n", c.stdinDoc["secret"], name)
	}
	c.emit(map[string]any{"name": name, "has_secret": true, "rotated": rotated})
	return nil
}

// authStatus is config auth status's result (AuthStatusResult,
// _operator_results.py:109): the AEAT portal's authentication (a
// certificate is configured; authenticated only after a live login, which
// the fake never makes) and the active profile's health
// (_profile_health.py): none without one — next, create one or log in to
// a registered one — else ready or incomplete.
func (c *call) authStatus(p *profile) map[string]any {
	na := rules.FirstRun.NextAction
	status, next := "none", na.NoProfile
	switch {
	case p == nil && len(c.st.Profiles) > 0:
		next = na.Registered
	case p != nil && p.Complete:
		status, next = "ready", na.Ready
	case p != nil:
		status, next = "incomplete", fmt.Sprintf(na.Incomplete, c.profile)
	}
	return map[string]any{"provider": "certificado-electronico", "configured": true, "authenticated": false, "available": false,
		"active_profile": c.profile, "active_profile_status": status, "active_profile_registered": p != nil,
		"active_profile_record_present": p != nil, "active_profile_next_action": next,
		"backend_configured": true, "backend_available": false, "certificate_path": "", "health_severity": "", "health_summary": ""}
}

// passphrase is the master passphrase a verb that needs one is given:
// its --secrets-stdin document's, else CADRUMO_SECRET_PASSPHRASE; with
// neither (and no terminal: the fake never has one), a failure.
func (c *call) passphrase() (string, *refusal) {
	pp := rules.FirstRun.Passphrase
	v := c.stdinDoc["passphrase"]
	if v == "" {
		v = os.Getenv(rules.Login.HeadlessEnv)
	}
	switch {
	case v == "":
		return "", c.failed(pp.NotInteractive)
	case len(v) < pp.MinLength:
		return "", c.failed(pp.TooShort)
	}
	return v, nil
}

// profileCreate makes a new profile, the active one, with the passphrase
// it is given; it opens no session.
func (c *call) profileCreate() *refusal {
	var missing []string
	for _, f := range rules.FirstRun.ProfileCreate.QuietRequired {
		if !c.has(f) {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		return c.failed(rules.FirstRun.ProfileCreate.MissingFlag, strings.Join(missing, " "))
	}
	pass, r := c.passphrase()
	if r != nil {
		return r
	}
	name := "default"
	if len(c.args) > 0 {
		name = c.args[0]
	}
	c.st.Profiles[name] = &profile{Passphrase: pass, Complete: true}
	c.st.Active, c.st.Session, c.profile = name, nil, name
	c.saveStore()
	c.emit(map[string]any{"profile_name": name, "status": "created", "active_profile": name})
	return nil
}

// login unlocks a profile (NAME, else the active one) with its
// passphrase, makes it the active one, and keeps its session in the OS
// keychain when the keyring reaches one; otherwise the session lasts this
// command only, and a notice says so.
func (c *call) login() *refusal {
	name := c.profile
	if len(c.args) > 0 {
		name = c.args[0]
	}
	p, ok := c.st.Profiles[name]
	if !ok {
		return c.failed(rules.FirstRun.Login.NoProfile)
	}
	pass, r := c.passphrase()
	if r != nil {
		return r
	}
	if pass != p.Passphrase {
		return c.mismatch()
	}
	c.st.Active, c.profile = name, name
	persisted := keyringReachable()
	backend := "file"
	c.st.Session = nil
	if persisted {
		backend = "keyring"
		c.st.Session = &session{Profile: name, Backend: backend, LastUsed: time.Now().UTC()}
	}
	c.saveStore()
	result := map[string]any{"profile_id": name, "active_profile": name, "backend_kind": backend, "session_persisted": persisted,
		"already_authenticated": false, "closed_previous_profile": nil}
	if persisted {
		c.emit(result)
		return nil
	}
	n := rules.FirstRun.Login.SessionNotPersisted
	c.emitNotices(result, map[string]any{"severity": "warning", "code": n.Code, "message": n.Message, "suggestion": nil,
		"context": map[string]any{"profile_id": name}})
	return nil
}

// logout closes the session and clears the active pointer.
func (c *call) logout() *refusal {
	var out any
	if c.st.Active != "" {
		out = c.st.Active
	}
	c.st.Session, c.st.Active, c.profile = nil, "", ""
	c.saveStore()
	c.emit(map[string]any{"logged_out_profile": out, "already_logged_out": out == nil})
	return nil
}
