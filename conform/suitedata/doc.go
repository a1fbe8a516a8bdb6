// Package suitedata unpacks the conformance data built into the airwire
// binary (package airwire: scenarios/*.yaml and goldens/) into a directory,
// so that `airwire conform` runs from anywhere with the scenarios, goldens
// and cassettes of the airwire it is. The runners read plain directories
// (the CLI replay reads its cassette from a path), so the data is written
// once per content into the user cache directory,
// <cache>/airwire/suite/<sha256 prefix>/{scenarios,goldens}, and reused.
//
// It never writes into a directory that exists: a new content gets a new
// directory, filled beside it and renamed into place, so two airwire
// processes can unpack at the same time. It never removes older copies.
package suitedata
