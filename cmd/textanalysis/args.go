package main

import (
	"context"
	"strings"

	"github.com/urfave/cli/v2"
)

// runApp runs app on args with the flags of the chosen command moved before
// its arguments, so that flags may come before or after the text:
// urfave/cli v2 stops reading flags at the first argument, and would read
// `sentiment "great" --pretty` as the text "great --pretty". `--` ends the
// flags: everything after it is text, even words that begin with a dash.
func runApp(ctx context.Context, app *cli.App, args []string) error {
	return app.RunContext(ctx, reorderArgs(app, args))
}

// reorderArgs returns args (args[0] is the program name) with each
// command's flags before its arguments, and a `--` between them when there
// are arguments, so that an argument that begins with a dash after `--`
// stays an argument. The command path (`keys revoke`) is found by name or
// alias; anything it cannot place is left as it was, for urfave/cli to
// report.
func reorderArgs(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	out := []string{args[0]}
	rest := args[1:]
	flags := app.Flags
	commands := app.Commands
	for {
		// Flags before the command name stay with the level that owns them.
		i := 0
		for i < len(rest) && isFlagArg(rest[i]) {
			n := flagArity(flags, rest[i])
			out = append(out, rest[i:min(i+1+n, len(rest))]...)
			i += 1 + n
		}
		if i >= len(rest) {
			return out
		}
		if rest[i] == "--" {
			return append(out, rest[i:]...)
		}
		cmd := findCommand(commands, rest[i])
		if cmd == nil || cmd.SkipFlagParsing {
			return append(out, rest[i:]...)
		}
		out = append(out, rest[i])
		rest = rest[i+1:]
		if len(cmd.Subcommands) > 0 {
			// The next word may name a subcommand: look for it after this
			// level's flags.
			j := 0
			for j < len(rest) && isFlagArg(rest[j]) {
				j += 1 + flagArity(cmd.Flags, rest[j])
			}
			if j < len(rest) && findCommand(cmd.Subcommands, rest[j]) != nil {
				flags, commands = cmd.Flags, cmd.Subcommands
				continue
			}
		}
		return append(out, splitFlags(cmd.Flags, rest)...)
	}
}

// splitFlags returns the flags of a leaf command (with their values) and
// then, after `--`, its arguments in their order.
func splitFlags(defs []cli.Flag, args []string) []string {
	var flags, positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			positional = append(positional, args[i+1:]...)
			i = len(args)
		case isFlagArg(a):
			n := flagArity(defs, a)
			flags = append(flags, args[i:min(i+1+n, len(args))]...)
			i += n
		default:
			positional = append(positional, a)
		}
	}
	if len(positional) == 0 {
		return flags
	}
	return append(append(flags, "--"), positional...)
}

// isFlagArg reports whether a looks like a flag: a dash and more, but not
// `-` (standard input) or `--` (the end of the flags).
func isFlagArg(a string) bool {
	return len(a) > 1 && a[0] == '-' && a != "--"
}

// flagArity is how many following words a flag consumes: 0 for a boolean
// flag, a flag written as name=value, or an unknown flag (urfave/cli then
// reports it), else 1.
func flagArity(defs []cli.Flag, a string) int {
	name := strings.TrimLeft(a, "-")
	if strings.Contains(name, "=") {
		return 0
	}
	for _, f := range defs {
		for _, n := range f.Names() {
			if n != name {
				continue
			}
			if tv, ok := f.(interface{ TakesValue() bool }); ok && tv.TakesValue() {
				return 1
			}
			return 0
		}
	}
	return 0
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}
