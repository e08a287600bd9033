// Package errpath is the engine's errors and the paths that say where
// they are: [Error] with its [ErrorKind] and [Path], a [Node] chain that
// walkers extend as they descend and turn into a Path only for an error,
// and the quoting of input text in messages. The smp package re-exports
// its public types.
package errpath
