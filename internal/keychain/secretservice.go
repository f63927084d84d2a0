//go:build linux || dragonfly || freebsd || netbsd || openbsd

package keychain

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/godbus/dbus/v5"
)

// osStore is the Secret Service on the session bus environ leads to.
func osStore(environ []string) Store {
	addr, err := SessionBus(environ)
	return secretService{addr: addr, busErr: err}
}

// secretService is a client of org.freedesktop.secrets (the Secret Service
// API, 0.2) on the bus at addr: each operation its own connection, closed
// when it ends. Items carry the attributes go-keyring gives them
// ({"service": Service, "username": NAME}) in the login collection (else the
// default one), so secrets stored by earlier releases are found.
type secretService struct {
	addr   string
	busErr error // no bus: every operation is unavailable, with this
}

const (
	ssName       = "org.freedesktop.secrets"
	ssPath       = dbus.ObjectPath("/org/freedesktop/secrets")
	ssService    = "org.freedesktop.Secret.Service"
	ssCollection = "org.freedesktop.Secret.Collection"
	ssItem       = "org.freedesktop.Secret.Item"
	ssSession    = "org.freedesktop.Secret.Session"
	ssPrompt     = "org.freedesktop.Secret.Prompt"
	loginPath    = dbus.ObjectPath("/org/freedesktop/secrets/collection/login")
	defaultAlias = dbus.ObjectPath("/org/freedesktop/secrets/aliases/default")
	noPrompt     = dbus.ObjectPath("/")
)

// opWait bounds one operation, connection included: a prompt nobody
// answers (a locked keychain under an MCP host) must not hold a goroutine
// for ever. Get bounds what its caller waits ([DefaultWait]).
const opWait = 2 * time.Minute

// secret is the Secret Service's Secret struct (oayays).
type secret struct {
	Session     dbus.ObjectPath
	Parameters  []byte
	Value       []byte
	ContentType string
}

func (s secretService) Get(name string) (string, error) {
	var v string
	err := s.do(func(c *ssConn) error {
		item, err := c.find(name)
		if err != nil {
			return err
		}
		session, err := c.openSession()
		if err != nil {
			return err
		}
		defer c.closeSession(session)
		if err := c.unlock(item); err != nil {
			return err
		}
		var sec secret
		if err := c.obj(item).CallWithContext(c.ctx, ssItem+".GetSecret", 0, session).Store(&sec); err != nil {
			return err
		}
		v = string(sec.Value)
		return nil
	})
	return v, err
}

func (s secretService) Set(name, value string) error {
	return s.do(func(c *ssConn) error {
		session, err := c.openSession()
		if err != nil {
			return err
		}
		defer c.closeSession(session)
		coll, err := c.collection()
		if err != nil {
			return err
		}
		if err := c.unlock(coll); err != nil {
			return err
		}
		props := map[string]dbus.Variant{
			ssItem + ".Label":      dbus.MakeVariant(fmt.Sprintf("Password for '%s' on '%s'", name, Service)),
			ssItem + ".Attributes": dbus.MakeVariant(attributes(name)),
		}
		sec := secret{Session: session, Parameters: []byte{}, Value: []byte(value), ContentType: "text/plain; charset=utf8"}
		var item, prompt dbus.ObjectPath
		if err := c.obj(coll).CallWithContext(c.ctx, ssCollection+".CreateItem", 0, props, sec, true).Store(&item, &prompt); err != nil {
			return err
		}
		_, err = c.prompt(prompt)
		return err
	})
}

func (s secretService) Delete(name string) error {
	return s.do(func(c *ssConn) error {
		item, err := c.find(name)
		if err != nil {
			return err
		}
		var prompt dbus.ObjectPath
		if err := c.obj(item).CallWithContext(c.ctx, ssItem+".Delete", 0).Store(&prompt); err != nil {
			return err
		}
		_, err = c.prompt(prompt)
		return err
	})
}

func attributes(name string) map[string]string {
	return map[string]string{"service": Service, "username": name}
}

// do runs op on a fresh connection to the bus; every error but
// [ErrNotFound] is the keychain being unavailable, said for a person.
func (s secretService) do(op func(*ssConn) error) error {
	if s.busErr != nil {
		return &UnavailableError{Err: s.busErr}
	}
	ctx, cancel := context.WithTimeout(context.Background(), opWait)
	defer cancel()
	conn, err := dbus.Connect(s.addr, dbus.WithContext(ctx))
	if err != nil {
		return &UnavailableError{Err: fmt.Errorf("the session bus at %s does not answer: %w", s.addr, err)}
	}
	defer conn.Close()
	err = op(&ssConn{conn: conn, ctx: ctx})
	switch {
	case err == nil, errors.Is(err, ErrNotFound):
		return err
	}
	var de dbus.Error
	if errors.As(err, &de) && de.Name == "org.freedesktop.DBus.Error.ServiceUnknown" {
		err = fmt.Errorf("the session bus has no Secret Service (org.freedesktop.secrets): no keychain such as GNOME Keyring or KWallet runs in this session (%w)", err)
	}
	return &UnavailableError{Err: err}
}

// ssConn is one operation's connection.
type ssConn struct {
	conn *dbus.Conn
	ctx  context.Context
}

func (c *ssConn) obj(path dbus.ObjectPath) dbus.BusObject { return c.conn.Object(ssName, path) }

func (c *ssConn) openSession() (dbus.ObjectPath, error) {
	var out dbus.Variant
	var session dbus.ObjectPath
	err := c.obj(ssPath).CallWithContext(c.ctx, ssService+".OpenSession", 0, "plain", dbus.MakeVariant("")).Store(&out, &session)
	return session, err
}

func (c *ssConn) closeSession(session dbus.ObjectPath) {
	_ = c.obj(session).CallWithContext(c.ctx, ssSession+".Close", 0).Err
}

// collection is the login collection when the service has one, else the
// default alias (go-keyring's choice, kept for the secrets it stored).
func (c *ssConn) collection() (dbus.ObjectPath, error) {
	v, err := c.obj(ssPath).GetProperty(ssService + ".Collections")
	if err != nil {
		return "", err
	}
	if paths, ok := v.Value().([]dbus.ObjectPath); ok && slices.Contains(paths, loginPath) {
		return loginPath, nil
	}
	return defaultAlias, nil
}

// find is the item that holds name, or ErrNotFound.
func (c *ssConn) find(name string) (dbus.ObjectPath, error) {
	coll, err := c.collection()
	if err != nil {
		return "", err
	}
	if err := c.unlock(coll); err != nil {
		return "", err
	}
	var items []dbus.ObjectPath
	if err := c.obj(coll).CallWithContext(c.ctx, ssCollection+".SearchItems", 0, attributes(name)).Store(&items); err != nil {
		return "", err
	}
	if len(items) == 0 {
		return "", ErrNotFound
	}
	return items[0], nil
}

// unlock unlocks path (a collection or an item), through the service's
// prompt when it asks for one.
func (c *ssConn) unlock(path dbus.ObjectPath) error {
	var unlocked []dbus.ObjectPath
	var prompt dbus.ObjectPath
	if err := c.obj(ssPath).CallWithContext(c.ctx, ssService+".Unlock", 0, []dbus.ObjectPath{path}).Store(&unlocked, &prompt); err != nil {
		return err
	}
	if prompt == noPrompt {
		return nil
	}
	_, err := c.prompt(prompt)
	return err
}

// prompt shows the service's prompt (a password dialog on a desktop) and
// waits for it to complete: its result, or an error when it was dismissed.
func (c *ssConn) prompt(prompt dbus.ObjectPath) (dbus.Variant, error) {
	if prompt == noPrompt || prompt == "" {
		return dbus.Variant{}, nil
	}
	match := []dbus.MatchOption{dbus.WithMatchObjectPath(prompt), dbus.WithMatchInterface(ssPrompt)}
	if err := c.conn.AddMatchSignalContext(c.ctx, match...); err != nil {
		return dbus.Variant{}, err
	}
	defer func() { _ = c.conn.RemoveMatchSignalContext(c.ctx, match...) }()
	signals := make(chan *dbus.Signal, 4)
	c.conn.Signal(signals)
	defer c.conn.RemoveSignal(signals)
	if err := c.obj(prompt).CallWithContext(c.ctx, ssPrompt+".Prompt", 0, "").Err; err != nil {
		return dbus.Variant{}, err
	}
	for {
		select {
		case <-c.ctx.Done():
			return dbus.Variant{}, fmt.Errorf("the keychain asked for its password and nobody answered within %v", opWait)
		case sig := <-signals:
			if sig == nil || sig.Path != prompt || sig.Name != ssPrompt+".Completed" || len(sig.Body) < 2 {
				continue
			}
			if dismissed, _ := sig.Body[0].(bool); dismissed {
				return dbus.Variant{}, errors.New("the keychain asked for its password, and the prompt was dismissed")
			}
			result, _ := sig.Body[1].(dbus.Variant)
			return result, nil
		}
	}
}
