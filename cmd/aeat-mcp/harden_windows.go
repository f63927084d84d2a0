package main

import (
	"fmt"

	"golang.org/x/sys/windows"
)

// ownerRights are what the server's own user — and so a CLI it runs — may
// do to the server's process: wait for it, read its name and times, end it
// (Task Manager, a host's tree kill). Not PROCESS_DUP_HANDLE:
// DuplicateHandle of its stdin or stdout pipe is how another process of
// the user writes into them; nor reading or writing its memory, starting a
// thread in it, suspending it, or changing these rights (the OWNER RIGHTS
// entry takes the owner's implicit WRITE_DAC away).
const ownerRights = windows.SYNCHRONIZE | windows.PROCESS_TERMINATE |
	windows.PROCESS_QUERY_INFORMATION | windows.PROCESS_QUERY_LIMITED_INFORMATION

// harden replaces the process's DACL with a protected one: the owner
// (OWNER RIGHTS, S-1-3-4) gets ownerRights, SYSTEM everything. Handles
// opened before — the host's, from CreateProcess — keep their access; an
// administrator with SeDebugPrivilege is not held back.
func harden() (string, error) {
	sd, err := windows.SecurityDescriptorFromString(fmt.Sprintf("D:P(A;;0x%x;;;OW)(A;;GA;;;SY)", ownerRights))
	if err != nil {
		return "", err
	}
	dacl, _, err := sd.DACL()
	if err != nil {
		return "", err
	}
	err = windows.SetSecurityInfo(windows.CurrentProcess(), windows.SE_KERNEL_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil)
	if err != nil {
		return "", err
	}
	return "other processes of this user may only wait for, query and end it: not duplicate its pipe handles or touch its memory", nil
}
