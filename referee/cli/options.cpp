#include "cli/options.h"

#include <iostream>
#include <sstream>

#include "referee_version.h"

namespace referee::cli {

namespace {

// `visible` with --help and --version first, whatever the command declared for them.
po::options_description shown_options(const po::options_description& visible) {
  po::options_description shown("options");
  shown.add_options()("help,h", "show this help")("version", "print the version and exit");
  for (const auto& option : visible.options())
    if (option->long_name() != "help" && option->long_name() != "version") shown.add(option);
  return shown;
}

}  // namespace

std::string version_line() {
  return std::string("referee ") + kVersion;
}

void print_help(std::ostream& out, const CommandHelp& help, const po::options_description& visible,
                const std::string& after) {
  out << "usage: " << help.usage << "\n";
  if (!help.about.empty()) out << help.about << (help.about.back() == '\n' ? "" : "\n");
  out << "\n" << shown_options(visible);
  if (!after.empty()) out << "\n" << after;
}

std::optional<int> parse_command(const Args& args, const CommandHelp& help,
                                 const po::options_description& visible, po::variables_map& vm,
                                 const po::options_description* hidden,
                                 const po::positional_options_description* positional,
                                 const std::string& after) {
  po::options_description all = shown_options(visible);
  if (hidden) all.add(*hidden);
  auto parser = po::command_line_parser(args).options(all);
  if (positional)
    parser.positional(*positional);
  else
    parser.positional(po::positional_options_description());  // a stray word is an error
  po::store(parser.run(), vm);
  if (vm.count("help")) {
    print_help(std::cout, help, visible, after);
    return 0;
  }
  if (vm.count("version")) {
    std::cout << version_line() << "\n";
    return 0;
  }
  po::notify(vm);
  return std::nullopt;
}

std::optional<int> parse_captioned(const Args& args, const po::options_description& desc,
                                   po::variables_map& vm,
                                   const po::positional_options_description* positional,
                                   const po::options_description* hidden,
                                   const std::string& after) {
  // Boost 1.74 has no caption accessor: the caption is what the description prints before the
  // ":" that ends it.
  std::ostringstream printed;
  printed << desc;
  const std::string text = printed.str();
  const std::string caption = text.substr(0, text.find(":\n"));
  const auto newline = caption.find('\n');
  CommandHelp help{caption.substr(0, newline),
                   newline == std::string::npos ? "" : caption.substr(newline + 1)};
  return parse_command(args, help, desc, vm, hidden, positional, after);
}

}  // namespace referee::cli
