package journal

// nullDevice is no device file on Windows: devices (NUL, CON) are names,
// which privatefile's file-type check covers.
func nullDevice(string) (string, bool) { return "", false }
