// Package secretservicetest runs a real Secret Service for tests: a private
// D-Bus session bus (dbus-daemon) and GNOME Keyring's secrets component on
// it, unlocked, in a directory of the test's own — the desktop keychain a
// Linux user has, without touching theirs. Tests that need it skip where
// dbus-daemon or gnome-keyring-daemon is not installed (Debian: dbus-daemon,
// gnome-keyring); both end with the test.
//
// The Secret Service is Linux's keychain: the package is empty elsewhere.
package secretservicetest
