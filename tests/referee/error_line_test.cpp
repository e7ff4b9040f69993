// referee/match/error_line: the stderr line a crash reason quotes, for the way each runtime ends
// its stderr (Node.js, Python, Rust, Go, C++, Java, a fatal signal), and the fallbacks.
#include <catch2/catch.hpp>

#include "referee/match/error_line.h"

using referee::match::error_line;

TEST_CASE("error_line: the exception above Node.js's version banner") {
  CHECK(error_line({"/home/me/bot.js:12", "    throw new Error(\"boom\");", "    ^", "Error: boom",
                    "    at Object.<anonymous> (/home/me/bot.js:12:11)",
                    "    at node:internal/main/run_main_module:28:49", "Node.js v20.20.2"}) ==
        "Error: boom");
  CHECK(error_line({"TypeError: Cannot read properties of undefined (reading 'x')",
                    "    at f (/b.js:1:1)", "Node.js v18.19.0"}) ==
        "TypeError: Cannot read properties of undefined (reading 'x')");
}

TEST_CASE("error_line: a Python traceback's last line") {
  CHECK(error_line({"Traceback (most recent call last):", "  File \"bot.py\", line 3, in <module>",
                    "    main()", "ValueError: bad move"}) == "ValueError: bad move");
  CHECK(error_line({"Traceback (most recent call last):", "  File \"bot.py\", line 9, in go",
                    "    assert ok", "AssertionError"}) == "AssertionError");
}

TEST_CASE("error_line: a Rust panic with its message, a Go panic, C++ terminate with what()") {
  CHECK(error_line({"thread 'main' panicked at src/main.rs:2:5:", "no legal move",
                    "note: run with `RUST_BACKTRACE=1` environment variable to display a "
                    "backtrace"}) == "thread 'main' panicked at src/main.rs:2:5: no legal move");
  CHECK(error_line({"panic: runtime error: index out of range [5] with length 3", "",
                    "goroutine 1 [running]:", "main.main()", "\t/src/main.go:5 +0x1d",
                    "exit status 2"}) ==
        "panic: runtime error: index out of range [5] with length 3");
  CHECK(error_line({"terminate called after throwing an instance of 'std::runtime_error'",
                    "  what():  bad pit"}) ==
        "terminate called after throwing an instance of 'std::runtime_error' what():  bad pit");
  CHECK(error_line({"Exception in thread \"main\" java.lang.IllegalStateException: no move",
                    "\tat Bot.main(Bot.java:7)"}) ==
        "Exception in thread \"main\" java.lang.IllegalStateException: no move");
  CHECK(error_line({"searching depth 9", "Segmentation fault (core dumped)"}) ==
        "Segmentation fault (core dumped)");
}

TEST_CASE("error_line: without an error, the last line that is not a trailer") {
  CHECK(error_line({"mock stderr 1.0"}) == "mock stderr 1.0");
  CHECK(error_line({"out of ideas", "Node.js v20.20.2"}) == "out of ideas");
  CHECK(error_line({"Node.js v20.20.2"}) == "Node.js v20.20.2");
  CHECK(error_line({}).empty());
}
