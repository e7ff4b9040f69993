// What every subcommand's command line shares, over Boost.Program_options: one --help layout and
// the --help / --version switches.
//
//   usage: referee perft GAME DEPTH [options]
//   One line or more on what the command does.
//
//   options:
//     -h [ --help ]          show this help
//     --version              print the version and exit
//     -p [ --position ] P    start from this position string (default: the start)
//
// Options with a default declare it (default_value) so that --help shows it. A command's own
// "help" and "version" entries are replaced by these two, so every command lists them alike.
#pragma once

#include <boost/program_options.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "cli/cli.h"

namespace referee::cli {

namespace po = boost::program_options;

// "referee 0.1.0".
std::string version_line();

struct CommandHelp {
  std::string usage;  // "referee perft GAME DEPTH [options]", without "usage: "
  std::string about;  // what the command does; may be empty
};

// `after`, when not empty, is printed under the options (e.g. how a client finds the daemon).
void print_help(std::ostream& out, const CommandHelp& help, const po::options_description& visible,
                const std::string& after = "");

// Parses `args` against `visible` (shown in the help) and `hidden` (positional arguments). On
// --help or --version prints to stdout and returns 0, the command's exit status; otherwise fills
// `vm` (notified) and returns nullopt. Bad options throw po::error: main() prints them as one
// line with status 2.
std::optional<int> parse_command(const Args& args, const CommandHelp& help,
                                 const po::options_description& visible, po::variables_map& vm,
                                 const po::options_description* hidden = nullptr,
                                 const po::positional_options_description* positional = nullptr,
                                 const std::string& after = "");

// The same for a command written as one options_description whose caption holds the usage line
// (and, on further lines, what the command does): the caption is split into those two. `hidden`
// holds the positional arguments (never listed as options); `after` goes under the options.
std::optional<int> parse_captioned(const Args& args, const po::options_description& desc,
                                   po::variables_map& vm,
                                   const po::positional_options_description* positional = nullptr,
                                   const po::options_description* hidden = nullptr,
                                   const std::string& after = "");

}  // namespace referee::cli
