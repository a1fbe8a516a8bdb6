package privatefile

import (
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"
)

// fileAllAccess is FILE_ALL_ACCESS, SDDL's FA.
const fileAllAccess = 0x1f01ff

// checkPrivate fails unless path's DACL is protected from inheritance and
// holds one ACE, which allows the current user full access.
func checkPrivate(t *testing.T, path string) {
	t.Helper()
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		t.Fatal(err)
	}
	control, _, err := sd.Control()
	if err != nil || control&windows.SE_DACL_PROTECTED == 0 {
		t.Fatalf("the DACL is not protected from inheritance: %s (%v)", sd, err)
	}
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil || dacl.AceCount != 1 {
		t.Fatalf("the DACL is not one ACE: %s (%v)", sd, err)
	}
	var ace *windows.ACCESS_ALLOWED_ACE
	if err := windows.GetAce(dacl, 0, &ace); err != nil {
		t.Fatal(err)
	}
	user, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		t.Fatal(err)
	}
	sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
	if ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE || !sid.Equals(user.User.Sid) || ace.Mask&fileAllAccess != fileAllAccess {
		t.Fatalf("the ACE is not full access for %s: %s", user.User.Sid, sd)
	}
}

// The SDDL names the user only, in a protected DACL.
func TestOwnerOnlySDDL(t *testing.T) {
	if got, want := ownerOnlySDDL("S-1-5-21-1-2-3-1001"), "D:P(A;;FA;;;S-1-5-21-1-2-3-1001)"; got != want {
		t.Fatalf("%s, want %s", got, want)
	}
}
