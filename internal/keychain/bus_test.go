package keychain

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSessionBus: the bus the environment names, else the user's standard
// socket where it exists, else none — with words for a person, and never
// a bus started for the look-up ("autolaunch:" names none).
func TestSessionBus(t *testing.T) {
	sockets := map[string]bool{"/run/user/1000/bus": true, "/tmp/rt dir/bus": true}
	socket := func(p string) bool { return sockets[p] }
	for _, tc := range []struct {
		name, want string
		env        []string
		uid        int
	}{
		{"named", "unix:path=/x/bus,guid=1", []string{"DBUS_SESSION_BUS_ADDRESS=unix:path=/x/bus,guid=1", "XDG_RUNTIME_DIR=/tmp/rt dir"}, 1000},
		{"runtime dir", "unix:path=/tmp/rt%20dir/bus", []string{"XDG_RUNTIME_DIR=/tmp/rt dir"}, 1000},
		{"standard", "unix:path=/run/user/1000/bus", []string{"XDG_RUNTIME_DIR=/tmp/empty"}, 1000},
		{"autolaunch is no bus", "unix:path=/run/user/1000/bus", []string{"DBUS_SESSION_BUS_ADDRESS=autolaunch:"}, 1000},
		{"relative runtime dir ignored", "unix:path=/run/user/1000/bus", []string{"XDG_RUNTIME_DIR=rel"}, 1000},
	} {
		got, err := sessionBus(lookupIn(tc.env), tc.uid, socket)
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, got, tc.name)
	}

	_, err := sessionBus(lookupIn([]string{"DBUS_SESSION_BUS_ADDRESS=autolaunch:", "XDG_RUNTIME_DIR=/tmp/empty"}), 0, socket)
	var nb *NoBusError
	require.ErrorAs(t, err, &nb)
	assert.Equal(t, []string{"/tmp/empty/bus", "/run/user/0/bus"}, nb.Looked)
	for _, says := range []string{"no desktop keychain", "DBUS_SESSION_BUS_ADDRESS is not set", "/tmp/empty/bus or /run/user/0/bus",
		"does not start a bus of its own", "start the MCP host from the desktop session", `the host's "env" block`} {
		assert.Contains(t, err.Error(), says)
	}
	_, err = sessionBus(lookupIn([]string{"XDG_RUNTIME_DIR=/run/user/0"}), 0, socket)
	require.ErrorAs(t, err, &nb)
	assert.Equal(t, []string{"/run/user/0/bus"}, nb.Looked, "the standard path is looked at once")
}
