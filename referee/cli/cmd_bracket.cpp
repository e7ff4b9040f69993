// Subcommand bracket: a stored knockout's bracket, or a stored Swiss event's rounds and standings
// (event/rounds.h), read from the database as `referee tournament` prints them at its end.
#include <boost/program_options.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/stored_games.h"
#include "event/event_spec.h"
#include "event/rounds.h"
#include "storage/work_queue.h"

namespace referee::cli {

namespace po = boost::program_options;

int bracket(const Args& args) {
  std::string db = "referee.db", name;
  bool json = false;
  po::options_description desc;
  desc.add_options()("db", po::value(&db)->value_name("DB")->default_value(db),
                     "database: a file (opened read-only) or a postgresql:// URL")(
      "json", po::bool_switch(&json), "as JSON (the API's /api/events/ID/rounds)");
  po::options_description hidden;
  hidden.add_options()("event", po::value(&name));
  po::positional_options_description pos;
  pos.add("event", 1);
  const CommandHelp help{"referee bracket EVENT [options]",
                         "The bracket of a knockout event, or the rounds and standings (with\n"
                         "Buchholz and Sonneborn-Berger) of a Swiss event, from the database."};
  po::variables_map vm;
  if (auto done = parse_command(args, help, desc, vm, &hidden, &pos)) return *done;
  if (name.empty()) {
    std::cerr << "referee bracket: give an event's name (usage: " << help.usage << ")\n";
    return 2;
  }
  auto store = open_database_for_reading(db, "bracket");
  if (!store) return 1;
  auto row = storage::work_queue::event_named(*store, name);
  if (!row) {
    std::cerr << "referee bracket: " << row.error() << "\n";
    return 1;
  }
  if (!*row) {
    std::cerr << "referee bracket: no event named '" << name << "' in " << db << "\n";
    return 1;
  }
  auto config = (*row)->spec.empty() ? Expected<event::TournamentConfig>(Error{"no specification"})
                                     : event::config_from_spec((*row)->spec);
  if (!config || !event::has_rounds(*config)) {
    std::cerr << "referee bracket: event '" << name
              << "' is not a knockout or a Swiss event (see referee crosstable)\n";
    return 1;
  }
  auto view = event::read_rounds(*store, (*row)->id, *config);
  if (!view) {
    std::cerr << "referee bracket: " << view.error() << "\n";
    return 1;
  }
  if (json)
    std::cout << event::rounds_json(*config, *view).dump(2) << "\n";
  else
    std::cout << event::rounds_text(*config, *view);
  return 0;
}

}  // namespace referee::cli
