package privatefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// CreateNew creates path for writing, which must not exist (an error that
// matches fs.ErrExist if it does, a symlink or junction included:
// FILE_FLAG_OPEN_REPARSE_POINT keeps CREATE_NEW from following one to
// create its target), with a DACL that grants the current user full
// access and nobody else, protected from inheritance. What was created is
// checked not to be a reparse point, a directory or a device. The handle
// is not inherited by child processes.
func CreateNew(path string) (*os.File, error) {
	sa, err := ownerOnly()
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	name, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	h, err := windows.CreateFile(name, windows.GENERIC_WRITE,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE, sa, windows.CREATE_NEW,
		windows.FILE_ATTRIBUTE_NORMAL|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	if err := checkPlainFile(h); err != nil {
		windows.CloseHandle(h)
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}

// ownerOnly is the security of a new private file: the SDDL
// D:P(A;;FA;;;<user>), a protected DACL with one ACE, file-all-access for
// the user of this process's token.
func ownerOnly() (*windows.SecurityAttributes, error) {
	user, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return nil, fmt.Errorf("the current user: %w", err)
	}
	sd, err := windows.SecurityDescriptorFromString(ownerOnlySDDL(user.User.Sid.String()))
	if err != nil {
		return nil, err
	}
	return &windows.SecurityAttributes{Length: uint32(unsafe.Sizeof(windows.SecurityAttributes{})), SecurityDescriptor: sd}, nil
}

// errNotPlain says CreateNew created something other than a plain file.
var errNotPlain = errors.New("not a new regular file")

// checkPlainFile refuses a handle that is not a regular disk file: a
// reparse point, a directory, or a device (CON, NUL, a pipe).
func checkPlainFile(h windows.Handle) error {
	if t, err := windows.GetFileType(h); err != nil || t != windows.FILE_TYPE_DISK {
		return errNotPlain
	}
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &info); err != nil {
		return err
	}
	if info.FileAttributes&(windows.FILE_ATTRIBUTE_REPARSE_POINT|windows.FILE_ATTRIBUTE_DIRECTORY) != 0 {
		return errNotPlain
	}
	return nil
}

// ownerOnlySDDL is the security descriptor, in SDDL, of a private file: a
// protected DACL (P: nothing inherited from the directory) with one ACE
// that allows (A) file-all-access (FA) to sid.
func ownerOnlySDDL(sid string) string { return "D:P(A;;FA;;;" + sid + ")" }
