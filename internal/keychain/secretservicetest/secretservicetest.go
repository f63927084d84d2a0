//go:build linux

package secretservicetest

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// Session is a running session bus.
type Session struct {
	// Addr is the bus's address (DBUS_SESSION_BUS_ADDRESS).
	Addr string
	// RuntimeDir holds the bus's socket as "bus": the user's standard
	// place for it ($XDG_RUNTIME_DIR/bus).
	RuntimeDir string
}

// ready bounds how long the daemons may take to start on a loaded machine.
const ready = 2 * time.Minute

// Bus starts a session bus with no Secret Service on it.
func Bus(t testing.TB) Session {
	t.Helper()
	need(t, "dbus-daemon")
	dir := t.TempDir()
	conf := filepath.Join(dir, "bus.conf")
	sock := filepath.Join(dir, "bus")
	err := os.WriteFile(conf, []byte(`<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=`+sock+`</listen>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("dbus-daemon", "--config-file="+conf, "--nofork", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	start(t, cmd)
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon did not print its address: %v", err)
	}
	return Session{Addr: strings.TrimSpace(line), RuntimeDir: dir}
}

// SecretService starts a session bus with GNOME Keyring's Secret Service
// on it, its login keyring unlocked (as a desktop login leaves it).
func SecretService(t testing.TB) Session {
	t.Helper()
	need(t, "gnome-keyring-daemon")
	s := Bus(t)
	cmd := exec.Command("gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets")
	cmd.Env = []string{"HOME=" + s.RuntimeDir, "PATH=" + os.Getenv("PATH"), "XDG_RUNTIME_DIR=" + s.RuntimeDir,
		"DBUS_SESSION_BUS_ADDRESS=" + s.Addr}
	cmd.Stdin = strings.NewReader("login-password\n")
	start(t, cmd)
	conn, err := dbus.Connect(s.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for deadline := time.Now().Add(ready); ; time.Sleep(20 * time.Millisecond) {
		var has bool
		if err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, "org.freedesktop.secrets").Store(&has); err == nil && has {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("gnome-keyring-daemon did not take org.freedesktop.secrets within %v", ready)
		}
	}
}

func need(t testing.TB, program string) {
	if _, err := exec.LookPath(program); err != nil {
		t.Skipf("%s is not installed: no real Secret Service to test against (Debian: apt-get install dbus-daemon gnome-keyring)", program)
	}
}

// start runs cmd in a process group of its own, killed (and waited for)
// when the test ends.
func start(t testing.TB, cmd *exec.Cmd) {
	t.Helper()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
}
