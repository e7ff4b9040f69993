// The `referee` command's subcommands. Each takes its own arguments (after the subcommand name),
// parses them with Boost.Program_options, prints to stdout, reports errors as one line on stderr
// and returns the exit status (0 ok, 1 failure, 2 bad usage; `moves` returns 3 on a finished game).
#pragma once

#include <string>
#include <vector>

namespace referee::cli {

using Args = std::vector<std::string>;

int games(const Args& args);         // list the games and their parameters
int rules(const Args& args);         // one game's canonical string and parameters
int moves(const Args& args);         // legal moves of a position
int perft(const Args& args);         // perft counts, one line per depth
int show(const Args& args);          // draw a position
int tournament(const Args& args);    // run (or resume) a tournament file
int match(const Args& args);         // a match between engines given on the command line
int ratings(const Args& args);       // Elo tables from the database
int crosstable(const Args& args);    // head-to-head results from the database
int bracket(const Args& args);       // a stored knockout's bracket, a Swiss event's standings
int sprt(const Args& args);          // the SPRT of two engines on stored games
int export_games(const Args& args);  // PGN, JSON Lines or CSV
int import_games(const Args& args);  // a JSON Lines export back into a database
int verify(const Args& args);        // replay every stored game through the rules
int check_engine(const Args& args);  // protocol compliance of one engine
int bench(const Args& args);         // speed figures
int egdb(const Args& args);          // endgame tables: build, probe, info
int play(const Args& args);          // a game at the console (people and engines)
int transcript(const Args& args);    // one stored game's lines exchanged with its engines
int replay(const Args& args);        // one stored game at one ply, with the lines its engine got
int serve(const Args& args);         // the daemon (HTTP API, live stream, game pool)
int worker(const Args& args);        // plays the stored events' games beside other workers
int submit(const Args& args);        // clients of the daemon: submit a tournament file
int status(const Args& args);        //   events and their progress
int pause(const Args& args);         //   pause an event
int resume(const Args& args);        //   resume it
int cancel(const Args& args);        //   cancel it
int watch(const Args& args);         //   live progress of one event
int token(const Args& args);         // author tokens: add, list, revoke
int engine(const Args& args);        // engines as artifacts: add, list, show, export, retire
// upload, list, show on a daemon (cmd_engine_client.cpp)
int engine_client(const Args& args);

}  // namespace referee::cli
