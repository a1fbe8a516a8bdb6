package history

import "testing"

func TestValidID(t *testing.T) {
	for id, want := range map[string]bool{
		"0a1b2c3d-4e5f-6789-abcd-ef0123456789":    true,
		"0A1B2C3D-4E5F-6789-ABCD-EF0123456789":    true,
		"0a1b2c3d-4e5f-6789-abcd-ef012345678":     false, // 35
		"0a1b2c3d-4e5f-6789-abcd-ef01234567890":   false, // 37
		"0a1b2c3d04e5f-6789-abcd-ef0123456789":    false, // no dash at 8
		"0a1b2c3d-4e5f-6789-abcd-ef012345678-":    false, // dash elsewhere
		"-a1b2c3d-4e5f-6789-abcd-ef0123456789":    false,
		"0a1b2c3g-4e5f-6789-abcd-ef0123456789":    false, // g
		"../../../../../../../../../etc/passw":    false,
		"0a1b2c3d-4e5f-6789-abcd-ef012345678\x00": false,
		"": false,
	} {
		if got := ValidID(id); got != want {
			t.Errorf("ValidID(%q) = %v, want %v", id, got, want)
		}
	}
}
