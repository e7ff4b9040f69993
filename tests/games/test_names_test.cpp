// Every test case name must survive ctest: catch_discover_tests passes each name through a CMake
// list, where ';' separates items, so a name with ';' became a ctest test whose filter matched
// nothing and "passed" in 0.01 s without running (61 test cases did, until 2026-11-25).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

TEST_CASE("test names: no test case name holds a semicolon (ctest would silently run nothing)") {
  namespace fs = std::filesystem;
  // The name may be split over adjacent string literals: the whole run of them is checked.
  const std::regex name(R"re(TEST_CASE\(\s*((?:"[^"\n]*"\s*)+))re");
  std::size_t count = 0;
  std::vector<std::string> bad;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(SOURCE_DIR) / "tests")) {
    if (entry.path().extension() != ".cpp") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string source = text.str();
    for (std::sregex_iterator it(source.begin(), source.end(), name), end; it != end; ++it) {
      ++count;
      if ((*it)[1].str().find(';') != std::string::npos)
        bad.push_back(entry.path().filename().string() + ": " + (*it)[1].str());
    }
  }
  CHECK(count > 500);  // the scan sees the suite
  std::string list;
  for (const auto& b : bad) list += b + "\n";
  INFO(list);
  CHECK(bad.empty());
}
