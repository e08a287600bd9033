// Package errpath is the engine's errors and the paths that say where
// they are: [Error] with its [ErrorKind] and [Path], a [Node] chain that
// walkers extend as they descend and turn into a Path only for an error,
// and the quoting of input text in messages. The smp package re-exports
// its public types.
//
// A path is built one of two ways, by what the walk carries. The merge
// and the diff descend with the place they are at, so they extend a Node
// by a level for each object or list they enter. goval's walks of Go values
// (copy, conversion, measure) carry no place: a failure is named level by
// level on its way up ([Under]), so a walk that succeeds builds nothing;
// [UnderPath] puts such an error under the Node where the merge called it.
package errpath
