package main

import "github.com/typedpatch/typedpatch/internal/inputtext"

// Messages quote what comes from the command line or a file as the engine
// does (docs/errors.md, package internal/inputtext).

// quote renders a string from the input for a message.
func quote(s string) string { return inputtext.Quote(s) }

// bounded cuts text that may hold input (a file name, a wrapped error).
func bounded(s string) string { return inputtext.Bounded(s) }

// clean escapes the unprintable characters and invalid UTF-8 of a message.
func clean(s string) string { return inputtext.Clean(s) }

// cleanLines is clean for each line of a message of several lines.
func cleanLines(s string) string { return inputtext.Lines(s) }
