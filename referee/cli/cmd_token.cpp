// `referee token add NAME | list | revoke NAME [--db DB]`: the author tokens (service/principal.h),
// made and revoked by the operator on the database itself (whoever may write it is the operator).
//
// Decisions:
// - `add` prints the new token once, alone on stdout (so `referee token add bob > bob.token` makes
//   the author's token file; chmod 600 it); only its SHA-256 is stored (storage/credentials.h).
// - `list` prints names and dates, never a token: one line per author, "NAME  created  revoked".
// - A running daemon sees a new or revoked token at its next request (it looks tokens up in the
//   database each time).
#include <boost/program_options.hpp>
#include <iostream>

#include "cli/cli.h"
#include "cli/options.h"
#include "service/auth.h"
#include "storage/credentials.h"
#include "storage/database.h"

namespace referee::cli {

namespace po = boost::program_options;

int token(const Args& args) {
  std::string db = "referee.db", action, name;
  po::options_description desc(
      "referee token add NAME | list | revoke NAME [options]\n"
      "  add NAME     make an author token for NAME (printed once)\n"
      "  list         the author tokens' names and dates (never the tokens)\n"
      "  revoke NAME  refuse NAME's token from now on");
  desc.add_options()("help,h", "show this help")(
      "db", po::value(&db)->value_name("DB")->default_value(db),
      "database: a file or a postgresql:// URL");
  po::options_description hidden;
  hidden.add_options()("action", po::value(&action))("name", po::value(&name));
  po::positional_options_description positional;
  positional.add("action", 1).add("name", 1);
  po::variables_map vm;
  if (auto done = parse_captioned(args, desc, vm, &positional, &hidden)) return *done;
  const bool named = action == "add" || action == "revoke";
  if ((action != "list" && !named) || (named && name.empty()) || (!named && !name.empty())) {
    std::cerr << "referee token: give add NAME, list or revoke NAME (referee token --help)\n";
    return 2;
  }
  if (named) {
    if (auto valid = storage::credentials::check_author_name(name); !valid) {
      std::cerr << "referee token: " << valid.error() << "\n";
      return 2;
    }
  }
  auto store = storage::Database::open(db);
  if (!store) {
    std::cerr << "referee token: " << store.error() << "\n";
    return 1;
  }
  if (action == "add") {
    auto token = service::random_token();
    if (!token) {
      std::cerr << "referee token: " << token.error() << "\n";
      return 1;
    }
    if (auto added = storage::credentials::add_author(*store, name, service::token_hash(*token));
        !added) {
      std::cerr << "referee token: " << added.error() << "\n";
      return 1;
    }
    std::cout << *token << "\n";
    std::cerr << "author token of " << name
              << " above: shown only now (the database keeps its hash)\n";
    return 0;
  }
  if (action == "revoke") {
    auto revoked = storage::credentials::revoke_author(*store, name);
    if (!revoked) {
      std::cerr << "referee token: " << revoked.error() << "\n";
      return 1;
    }
    std::cout << (*revoked ? "revoked " : "already revoked: ") << name << "\n";
    return 0;
  }
  auto list = storage::credentials::authors(*store);
  if (!list) {
    std::cerr << "referee token: " << list.error() << "\n";
    return 1;
  }
  for (const auto& a : *list)
    std::cout << a.name << "  created " << a.created_at << "  "
              << (a.revoked_at.empty() ? std::string("in force") : "revoked " + a.revoked_at)
              << "\n";
  return 0;
}

}  // namespace referee::cli
