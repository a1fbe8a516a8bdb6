package cli

// Commands added by other packages are listed here, one line each.
func init() {
	registry = append(registry)
}
