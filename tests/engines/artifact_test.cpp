// Engine artifacts (engines/artifact.h): a file and a directory read as artifacts, the canonical
// packing (the same tree gives the same bytes whatever its mtimes, owners and umask), extraction
// giving the tree back, every refusal rule on a hostile archive built here (nothing written), the
// bomb stopped at its header, and the command checks.
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <map>

#include "engines/artifact.h"
#include "engines/artifact_util.h"
#include "engines/engine_hash.h"

using namespace referee::engines;

namespace artifact_test {

// What a directory holds: path -> "file <mode> <bytes>", "dir", "link <target>".
std::map<std::string, std::string> describe(const std::string& root) {
  std::map<std::string, std::string> out;
  for (const auto& it : std::filesystem::recursive_directory_iterator(root)) {
    const std::string rel = std::filesystem::relative(it.path(), root).string();
    struct stat st {};
    REQUIRE(::lstat(it.path().c_str(), &st) == 0);
    if (S_ISLNK(st.st_mode))
      out[rel] = "link " + std::filesystem::read_symlink(it.path()).string();
    else if (S_ISDIR(st.st_mode))
      out[rel] = "dir";
    else
      out[rel] =
          std::string("file ") + ((st.st_mode & S_IXUSR) ? "x " : "- ") + slurp(it.path().string());
  }
  return out;
}

// A small bot tree: a script, an executable, a nested module, an empty directory, links.
void make_tree(const TempDir& d, const std::string& sub) {
  d.write(sub + "/bot.py", "#!/usr/bin/env python3\nprint('hi')\n", 0755);
  d.write(sub + "/lib/util.py", "X = 1\n", 0644);
  d.write(sub + "/lib/deep/data.bin", std::string("\0\1\2\3", 4), 0600);
  std::filesystem::create_directories(d.path / sub / "empty");
  std::filesystem::create_symlink("lib/util.py", d.path / sub / "util_link.py");
  std::filesystem::create_symlink("../util.py", d.path / sub / "lib/deep/up.py");
  d.write(sub + "/donn\u00e9es/\u00e9t\u00e9.txt", "UTF-8 names", 0644);
}

}  // namespace artifact_test

TEST_CASE("artifact: a file is a File artifact whose SHA-256 is sha256sum's") {
  artifact_test::TempDir d;
  const std::string script = d.write("bot.py", "#!/usr/bin/env python3\nprint('x')\n", 0644);
  auto art = read_artifact(script);
  REQUIRE(art.ok());
  CHECK(art->kind == ArtifactKind::File);
  CHECK(art->file_name == "bot.py");
  CHECK(art->bytes == artifact_test::slurp(script));
  CHECK(art->sha256 == file_sha256(script).value());

  // Written back as <dir>/bot.py, executable because it starts with "#!".
  artifact_test::TempDir out;
  auto written = extract_artifact(art->kind, art->file_name, art->bytes, out.str(), {});
  REQUIRE(written.ok());
  CHECK(artifact_test::slurp(out.str() + "/bot.py") == art->bytes);
  struct stat st {};
  REQUIRE(::stat((out.str() + "/bot.py").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0755);

  // Data without "#!" or an ELF header is not executable.
  artifact_test::TempDir out2;
  REQUIRE(extract_artifact(ArtifactKind::File, "weights.txt", "1 2 3", out2.str(), {}).ok());
  REQUIRE(::stat((out2.str() + "/weights.txt").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0644);
  artifact_test::TempDir out3;
  REQUIRE(extract_artifact(ArtifactKind::File, "bot",
                           std::string("\x7f"
                                       "ELF\2\1\1",
                                       7),
                           out3.str(), {})
              .ok());
  REQUIRE(::stat((out3.str() + "/bot").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0755);
}

TEST_CASE("artifact: a file artifact's name must be one plain name") {
  for (const std::string& name : std::vector<std::string>{"", ".", "..", "a/b", "a\nb"}) {
    auto m = inspect_artifact(ArtifactKind::File, name, "x", {});
    CHECK_FALSE(m.ok());
    CHECK(m.kind() == referee::ErrorKind::Invalid);
  }
  ArtifactLimits small;
  small.max_extracted_bytes = 4;
  auto big = inspect_artifact(ArtifactKind::File, "bot.py", "12345", small);
  REQUIRE_FALSE(big.ok());
  CHECK_THAT(big.error(), Catch::Contains("'bot.py'"));
}

TEST_CASE("artifact: a directory packs the same whatever its mtimes, owners, umask") {
  artifact_test::TempDir d;
  artifact_test::make_tree(d, "a");
  auto first = read_artifact(d.str() + "/a");
  INFO((first.ok() ? std::string() : first.error()));
  REQUIRE(first.ok());
  CHECK(first->kind == ArtifactKind::Tree);
  CHECK(first->sha256 == referee::engines::bytes_sha256(first->bytes));

  // Touched, given away and group-writable: the same bytes.
  const struct timeval old[2] = {{1000000, 0}, {1000000, 0}};
  for (const auto& it : std::filesystem::recursive_directory_iterator(d.path / "a")) {
    ::lutimes(it.path().c_str(), old);
    if (::geteuid() == 0) REQUIRE(::lchown(it.path().c_str(), 1234, 5678) == 0);
    const bool exec = it.is_directory() || ::access(it.path().c_str(), X_OK) == 0;
    if (!it.is_symlink()) ::chmod(it.path().c_str(), exec ? 0775 : 0664);
  }
  auto second = read_artifact(d.str() + "/a/");  // a trailing slash changes nothing
  REQUIRE(second.ok());
  CHECK(second->sha256 == first->sha256);

  // The same tree made in another order, elsewhere: the same bytes.
  artifact_test::TempDir e;
  std::filesystem::create_directories(e.path / "b/empty");
  std::filesystem::create_directories(e.path / "b/lib/deep");
  std::filesystem::create_symlink("../util.py", e.path / "b/lib/deep/up.py");
  e.write("b/lib/deep/data.bin", std::string("\0\1\2\3", 4), 0640);
  std::filesystem::create_symlink("lib/util.py", e.path / "b/util_link.py");
  e.write("b/lib/util.py", "X = 1\n", 0664);
  e.write("b/bot.py", "#!/usr/bin/env python3\nprint('hi')\n", 0700);
  e.write("b/donn\u00e9es/\u00e9t\u00e9.txt", "UTF-8 names", 0644);
  auto third = read_artifact(e.str() + "/b");
  REQUIRE(third.ok());
  CHECK(third->sha256 == first->sha256);

  // One byte changed: another hash.
  e.write("b/lib/util.py", "X = 2\n", 0664);
  CHECK(read_artifact(e.str() + "/b")->sha256 != first->sha256);
}

TEST_CASE("artifact: extracting a packed directory gives the directory back") {
  artifact_test::TempDir d;
  artifact_test::make_tree(d, "src");
  auto art = read_artifact(d.str() + "/src");
  REQUIRE(art.ok());
  artifact_test::TempDir out;
  auto written = extract_artifact(art->kind, art->file_name, art->bytes, out.str(), {});
  REQUIRE(written.ok());
  CHECK(artifact_test::describe(out.str()) == artifact_test::describe(d.str() + "/src"));
  const std::string bot_py = "#!/usr/bin/env python3\nprint('hi')\n";
  CHECK(written->total_bytes == bot_py.size() + 6 + 4 + 11);
  const ArtifactEntry* bot = written->find("./bot.py");
  REQUIRE(bot != nullptr);
  CHECK(bot->executable);
  CHECK_FALSE(written->find("lib/util.py")->executable);
  CHECK(written->find("util_link.py")->type == EntryType::Symlink);

  // Into a directory that is not empty: refused.
  auto again = extract_artifact(art->kind, art->file_name, art->bytes, out.str(), {});
  REQUIRE_FALSE(again.ok());
  CHECK(again.kind() == referee::ErrorKind::Conflict);
}

TEST_CASE("artifact: an author's .tar.gz is a Tree of its bytes as they are") {
  artifact_test::TempDir d;
  const std::string bytes =
      artifact_test::TarBuilder(artifact_test::Filter::Gzip).file("bot.py", "print(1)\n").bytes();
  d.write("mine.tar.gz", bytes);
  auto art = read_artifact(d.str() + "/mine.tar.gz");
  REQUIRE(art.ok());
  CHECK(art->kind == ArtifactKind::Tree);
  CHECK(art->bytes == bytes);
  CHECK(art->sha256 == file_sha256(d.str() + "/mine.tar.gz").value());
}

TEST_CASE("artifact: gzip, bzip2, xz and zstd archives read alike") {
  auto filter = GENERATE(artifact_test::Filter::None, artifact_test::Filter::Gzip,
                         artifact_test::Filter::Bzip2, artifact_test::Filter::Xz,
                         artifact_test::Filter::Zstd);
  const std::string bytes = artifact_test::TarBuilder(filter)
                                .dir("bin")
                                .file("bin/bot", "#!/bin/sh\n", 0755)
                                .file("a.txt", "a")
                                .bytes();
  auto m = inspect_artifact(ArtifactKind::Tree, "", bytes, {});
  INFO((m.ok() ? std::string() : m.error()));
  REQUIRE(m.ok());
  REQUIRE(m->entries.size() == 3);
  CHECK(m->entries[1].path == "bin/bot");
  CHECK(m->entries[1].executable);
  CHECK(m->total_bytes == 11);
  CHECK(m->file_count() == 2);
}

namespace artifact_test {

struct Hostile {
  const char* what;
  std::string bytes;
  const char* culprit;  // the entry the message must name
};

std::vector<Hostile> hostile_archives() {
  std::vector<Hostile> out;
  out.push_back(
      {"an absolute path", TarBuilder().file("/etc/cron.d/x", "boom").bytes(), "/etc/cron.d/x"});
  out.push_back(
      {"a '..' component", TarBuilder().file("../evil.py", "boom").bytes(), "../evil.py"});
  out.push_back(
      {"a '..' component", TarBuilder().file("a/../../evil", "boom").bytes(), "a/../../evil"});
  out.push_back(
      {"a symbolic link to an absolute path", TarBuilder().symlink("etc", "/etc").bytes(), "etc"});
  out.push_back({"a symbolic link leaving the artifact",
                 TarBuilder().dir("d").symlink("d/up", "../../x").bytes(), "d/up"});
  out.push_back(
      {"'..' after a name", TarBuilder().symlink("s", ".").symlink("up", "s/..").bytes(), "up"});
  out.push_back({"which is a symbolic link",
                 TarBuilder().dir("d").symlink("l", "d").file("l/x", "x").bytes(), "l/x"});
  out.push_back({"a hard link", TarBuilder().file("a", "x").hardlink("b", "a").bytes(), "'b'"});
  out.push_back({"a character device", TarBuilder().special("null", AE_IFCHR).bytes(), "null"});
  out.push_back({"a block device", TarBuilder().special("sda", AE_IFBLK).bytes(), "sda"});
  out.push_back({"a FIFO", TarBuilder().special("pipe", AE_IFIFO).bytes(), "pipe"});
  out.push_back({"a duplicate path", TarBuilder().file("bot.py", "a").file("./bot.py", "b").bytes(),
                 "bot.py"});
  out.push_back({"a control character", TarBuilder().file("bad\nname", "x").bytes(), "bad\\nname"});
  out.push_back({"a name longer than 255 bytes",
                 TarBuilder().file(std::string(256, 'n'), "x").bytes(), "longer than 255"});
  std::string long_path = std::string(200, 'p');  // 21 names of 200 bytes: 4,220 bytes
  for (int i = 0; i < 20; ++i) long_path += "/" + std::string(200, 'p');
  out.push_back({"a path longer than 4095 bytes", TarBuilder().file(long_path, "x").bytes(),
                 "longer than 4095"});
  out.push_back({"an empty archive", TarBuilder().bytes(), "no entry"});
  out.push_back({"an empty archive", TarBuilder().dir("./").bytes(), "no entry"});
  out.push_back({"not a tar archive", "this is not an archive at all, just text\n", "not a tar"});
  out.push_back({"not an archive", "", "empty"});
  out.push_back({"a file then a directory below it",
                 TarBuilder().file("a", "x").file("a/b", "y").bytes(), "which is a file"});
  return out;
}

}  // namespace artifact_test

TEST_CASE("artifact: every hostile archive is refused whole, naming the entry") {
  for (const artifact_test::Hostile& h : artifact_test::hostile_archives()) {
    INFO(h.what);
    auto m = inspect_artifact(ArtifactKind::Tree, "", h.bytes, {});
    REQUIRE_FALSE(m.ok());
    CHECK(m.kind() == referee::ErrorKind::Invalid);
    CHECK_THAT(m.error(), Catch::Contains(h.culprit));
    CHECK(m.error().find('\n') == std::string::npos);
    // Extraction inspects first: nothing is written.
    artifact_test::TempDir out;
    auto written = extract_artifact(ArtifactKind::Tree, "", h.bytes, out.str(), {});
    REQUIRE_FALSE(written.ok());
    CHECK(written.error() == m.error());
    CHECK(artifact_test::dir_is_empty(out.str()));
  }
}

TEST_CASE("artifact: links that stay inside, and a root entry, are accepted") {
  const std::string bytes = artifact_test::TarBuilder()
                                .dir("./")
                                .dir("lib/deep")
                                .file("lib/x.py", "x")
                                .symlink("lib/deep/x.py", "../x.py")
                                .symlink("top", "lib/deep")
                                .symlink("self", ".")
                                .bytes();
  auto m = inspect_artifact(ArtifactKind::Tree, "", bytes, {});
  REQUIRE(m.ok());
  CHECK(m->entries.size() == 5);
}

TEST_CASE("artifact: more files or bytes than the limits are refused") {
  ArtifactLimits limits;
  limits.max_files = 3;
  const std::string four = artifact_test::TarBuilder()
                               .file("a", "1")
                               .file("b", "2")
                               .file("c", "3")
                               .file("d", "4")
                               .bytes();
  auto m = inspect_artifact(ArtifactKind::Tree, "", four, limits);
  REQUIRE_FALSE(m.ok());
  CHECK_THAT(m.error(), Catch::Contains("'d'") && Catch::Contains("more than 3 entries"));

  // The directories a path implies count: one file three levels down is four entries.
  m = inspect_artifact(ArtifactKind::Tree, "",
                       artifact_test::TarBuilder().file("a/b/c/d", "1").bytes(), limits);
  REQUIRE_FALSE(m.ok());
  CHECK_THAT(m.error(), Catch::Contains("'a/b/c/d'") && Catch::Contains("imply"));
  CHECK(inspect_artifact(ArtifactKind::Tree, "",
                         artifact_test::TarBuilder().file("a/b/d", "1").bytes(), limits)
            .ok());

  limits = ArtifactLimits{};
  limits.max_extracted_bytes = 10;
  const std::string eleven =
      artifact_test::TarBuilder().file("a", "12345").file("b", "123456").bytes();
  m = inspect_artifact(ArtifactKind::Tree, "", eleven, limits);
  REQUIRE_FALSE(m.ok());
  CHECK_THAT(m.error(), Catch::Contains("'b'"));

  limits = ArtifactLimits{};
  limits.max_archive_bytes = 100;
  m = inspect_artifact(ArtifactKind::Tree, "", eleven, limits);
  REQUIRE_FALSE(m.ok());
  CHECK_THAT(m.error(), Catch::Contains("more than the limit"));
}

TEST_CASE("artifact: a gzip bomb is refused at its header, before it is inflated") {
  // 64 MiB of zeros compress to about 64 KiB. Cut after a quarter of its compressed bytes, the
  // stream ends long before the data would: a refusal for its size, not for its truncation,
  // shows that the reader stopped at the entry's header.
  const std::string bomb = artifact_test::TarBuilder(artifact_test::Filter::Gzip)
                               .file("ok.py", "x")
                               .zeros("zeros", 64u << 20)
                               .bytes();
  CHECK(bomb.size() < (1u << 20));
  ArtifactLimits limits;
  limits.max_extracted_bytes = 1 << 20;
  for (const std::string& bytes : {bomb, bomb.substr(0, bomb.size() / 4)}) {
    auto m = inspect_artifact(ArtifactKind::Tree, "", bytes, limits);
    REQUIRE_FALSE(m.ok());
    CHECK_THAT(m.error(), Catch::Contains("'zeros'") && Catch::Contains("more than 1 MiB"));
    artifact_test::TempDir out;
    REQUIRE_FALSE(extract_artifact(ArtifactKind::Tree, "", bytes, out.str(), limits).ok());
    CHECK(artifact_test::dir_is_empty(out.str()));
  }
  // The truncated bomb within limits is refused as damaged: the cut is real.
  limits.max_extracted_bytes = 128 << 20;
  auto cut = inspect_artifact(ArtifactKind::Tree, "", bomb.substr(0, bomb.size() / 4), limits);
  REQUIRE_FALSE(cut.ok());
  CHECK_THAT(cut.error(), Catch::Contains("damaged"));
}

TEST_CASE("artifact: a directory with a FIFO or an absolute link is refused when read") {
  artifact_test::TempDir d;
  d.write("a/bot.py", "x");
  REQUIRE(::mkfifo((d.str() + "/a/pipe").c_str(), 0644) == 0);
  auto art = read_artifact(d.str() + "/a");
  REQUIRE_FALSE(art.ok());
  CHECK_THAT(art.error(), Catch::Contains("pipe") && Catch::Contains("FIFO"));

  d.write("b/bot.py", "x");
  std::filesystem::create_symlink("/etc/passwd", d.path / "b/passwd");
  art = read_artifact(d.str() + "/b");
  REQUIRE_FALSE(art.ok());
  CHECK_THAT(art.error(), Catch::Contains("'passwd'") && Catch::Contains("absolute"));

  d.write("c/bot.py", "x");
  const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(sock >= 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string socket_path = d.str() + "/c/sock";
  REQUIRE(socket_path.size() < sizeof address.sun_path);
  std::memcpy(address.sun_path, socket_path.c_str(), socket_path.size() + 1);
  REQUIRE(::bind(sock, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  ::close(sock);
  art = read_artifact(d.str() + "/c");
  REQUIRE_FALSE(art.ok());
  CHECK_THAT(art.error(), Catch::Contains("sock") && Catch::Contains("a socket"));

  art = read_artifact(d.str() + "/missing");
  REQUIRE_FALSE(art.ok());
  CHECK(art.kind() == referee::ErrorKind::NotFound);
}

TEST_CASE("artifact: a command names an executable of the artifact or an interpreter") {
  const std::string bytes = artifact_test::TarBuilder()
                                .file("bot", "#!/bin/sh\n", 0755)
                                .file("bot.py", "print(1)\n", 0644)
                                .dir("bin")
                                .symlink("bin/run", "../bot")
                                .bytes();
  auto m = inspect_artifact(ArtifactKind::Tree, "", bytes, {});
  REQUIRE(m.ok());
  artifact_test::TempDir
      host;  // a sandbox PATH with one interpreter, "python3", and a plain file "notexec"
  host.write("usr/bin/python3", "#!/bin/sh\n", 0755);
  host.write("usr/bin/notexec", "x", 0644);
  const std::vector<std::string> path = {host.str() + "/usr/bin"};

  CHECK(check_artifact_command(*m, {"./bot"}, path).ok());
  CHECK(check_artifact_command(*m, {"bin/run", "--fast"}, path).ok());
  CHECK(check_artifact_command(*m, {"python3", "-u", "bot.py"}, path).ok());
  CHECK(check_artifact_command(*m, {"python3", "./bot.py"}, path).ok());

  auto e = check_artifact_command(*m, {"./bot.py"}, path);
  REQUIRE_FALSE(e.ok());
  CHECK_THAT(e.error(), Catch::Contains("'./bot.py' is not executable"));
  e = check_artifact_command(*m, {"./nothere"}, path);
  REQUIRE_FALSE(e.ok());
  CHECK(e.error() == "command './nothere': './nothere' names no file of the artifact");
  e = check_artifact_command(*m, {"python3", "x.py"}, path);
  REQUIRE_FALSE(e.ok());
  CHECK(e.error() == "command 'python3 x.py' names no file of the artifact");
  e = check_artifact_command(*m, {"notexec", "bot.py"}, path);
  REQUIRE_FALSE(e.ok());
  e = check_artifact_command(*m, {"/usr/bin/python3", "bot.py"}, path);
  REQUIRE_FALSE(e.ok());
  CHECK_THAT(e.error(), Catch::Contains("absolute"));
  e = check_artifact_command(*m, {"bot"}, path);
  REQUIRE_FALSE(e.ok());
  CHECK_THAT(e.error(), Catch::Contains("write './bot'"));
  // The default sandbox PATH: no "foo" in it.
  e = check_artifact_command(*m, {"foo", "bot.py"});
  REQUIRE_FALSE(e.ok());
  CHECK(e.error() ==
        "command 'foo bot.py': 'foo' is neither a file of the artifact nor an interpreter the "
        "host offers in /usr/local/bin:/usr/bin:/bin");
  // python3 from deps.sh, in /usr/bin: offered by the default sandbox PATH.
  CHECK(check_artifact_command(*m, {"python3", "bot.py"}).ok());
  // The referee's own PATH does not count: python3 exists there, not in an empty sandbox PATH.
  artifact_test::TempDir empty;
  CHECK_FALSE(check_artifact_command(*m, {"python3", "bot.py"}, {empty.str()}).ok());
}

TEST_CASE("artifact: archives made by GNU tar read and extract as their directory") {
  artifact_test::TempDir d;
  artifact_test::make_tree(d, "src");
  for (const std::string& flags :
       std::vector<std::string>{"-cf a.tar", "-czf a.tar.gz", "--zstd -cf a.tar.zst"}) {
    INFO(flags);
    const std::string file = d.str() + "/" + flags.substr(flags.rfind(' ') + 1);
    // "." as the member: every entry is "./name", the root included.
    const std::string command =
        "tar -C " + d.str() + "/src " + flags.substr(0, flags.rfind(' ')) + " " + file + " .";
    REQUIRE(std::system(command.c_str()) == 0);
    auto art = read_artifact(file);
    REQUIRE(art.ok());
    CHECK(art->kind == ArtifactKind::Tree);
    artifact_test::TempDir out;
    REQUIRE(extract_artifact(art->kind, "", art->bytes, out.str(), {}).ok());
    CHECK(artifact_test::describe(out.str()) == artifact_test::describe(d.str() + "/src"));
    std::filesystem::remove(file);
  }
}
