package keychain

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The Secret Service is reached over the D-Bus session bus. Which bus is
// decided here, from the environment aeat-mcp started with (never the live
// process environment, which a library may have changed), and never by
// starting one: a bus started for one look-up (godbus's autolaunch runs
// dbus-launch) holds no keychain the user unlocked, and it and the
// keyring daemon it activates outlive aeat-mcp.

// SessionBus is the address of the session bus this user's process with
// the environment environ reaches (sessionBus): the Secret Service's, on
// Linux and the BSDs. doctor names it where the CLI is not given it.
func SessionBus(environ []string) (string, error) {
	return sessionBus(lookupIn(environ), os.Getuid(), isSocket)
}

func isSocket(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode()&os.ModeSocket != 0
}

// sessionBus is the address of the session bus a process with this
// environment (getenv) and user id reaches: the one DBUS_SESSION_BUS_ADDRESS
// names, else the user's standard bus socket — $XDG_RUNTIME_DIR/bus, then
// /run/user/UID/bus — when it exists (socket reports whether a path is a
// socket). "autolaunch:" names no bus: it asks for one to be started.
func sessionBus(getenv func(string) string, uid int, socket func(string) bool) (string, error) {
	if addr := getenv("DBUS_SESSION_BUS_ADDRESS"); addr != "" && !strings.HasPrefix(addr, "autolaunch:") {
		return addr, nil
	}
	var looked []string
	if dir := getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(dir) {
		looked = append(looked, filepath.Join(dir, "bus"))
	}
	if std := "/run/user/" + strconv.Itoa(uid) + "/bus"; len(looked) == 0 || looked[0] != std {
		looked = append(looked, std)
	}
	for _, p := range looked {
		if socket(p) {
			return "unix:path=" + escapeBusValue(p), nil
		}
	}
	return "", &NoBusError{Looked: looked}
}

// NoBusError: this session has no D-Bus session bus, so no Secret Service
// keychain can be reached. Its text says what that means for a person.
type NoBusError struct {
	// Looked are the standard bus sockets that do not exist.
	Looked []string
}

func (e *NoBusError) Error() string {
	return fmt.Sprintf("this session has no desktop keychain: no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set, and there is no %s), "+
		"so the Secret Service (GNOME Keyring, KWallet) cannot be asked — aeat-mcp does not start a bus of its own. "+
		"On a desktop, start the MCP host from the desktop session; on a machine without one (a server, a container, ssh), "+
		"give the secret in the host's \"env\" block instead", strings.Join(e.Looked, " or "))
}

// escapeBusValue escapes a D-Bus address value: every byte but
// [-0-9A-Za-z_/.\] is %xx (the D-Bus specification, "Server Addresses").
func escapeBusValue(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', strings.IndexByte("-_/.\\", c) >= 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02x", c)
		}
	}
	return b.String()
}

// lookupIn is getenv over an environment list ("NAME=value"; the last
// one of a name wins, as for a process).
func lookupIn(environ []string) func(string) string {
	return func(name string) string {
		v := ""
		for _, kv := range environ {
			if k, val, ok := strings.Cut(kv, "="); ok && k == name {
				v = val
			}
		}
		return v
	}
}
