#include "engines/engine_hash.h"

#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace referee::engines {

namespace {

std::string full_path(const std::string& path, const std::string& dir) {
  return (path.empty() || path.front() == '/' || dir.empty()) ? path : dir + "/" + path;
}

bool regular_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The file executed for `command` (see the header comment); "" when there is none.
std::string executed_file(const std::string& command, const std::string& dir) {
  if (command.find('/') != std::string::npos) return full_path(command, dir);
  const char* path_env = std::getenv("PATH");
  const std::string path = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    const std::string entry = path.substr(start, end - start);
    const std::string candidate =
        full_path((entry.empty() ? std::string(".") : entry) + "/" + command, dir);
    if (regular_file(candidate) && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

// A digest in lower-case hex.
std::string hex(const unsigned char* digest, unsigned int size) {
  static const char* const kHex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < size; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 15];
  }
  return out;
}

}  // namespace

Expected<std::string> file_sha256(const std::string& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                       &std::fclose);
  if (!file) return Error{"cannot read '" + path + "' to hash it"};
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1)
    return Error{"cannot hash '" + path + "': no SHA-256 in libcrypto"};
  char buffer[1 << 16];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, file.get())) > 0)
    if (EVP_DigestUpdate(ctx.get(), buffer, n) != 1) return Error{"cannot hash '" + path + "'"};
  if (std::ferror(file.get())) return Error{"cannot read '" + path + "' to hash it"};
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_DigestFinal_ex(ctx.get(), digest, &size) != 1) return Error{"cannot hash '" + path + "'"};
  return hex(digest, size);
}

std::string bytes_sha256(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &size, EVP_sha256(), nullptr) != 1) return "";
  return hex(digest, size);
}

Expected<EngineHash> engine_hash(const EngineConfig& config) {
  const std::string program = executed_file(config.command, config.working_dir);
  if (program.empty()) return Error{"'" + config.command + "' is not found in PATH"};
  auto program_hash = file_sha256(program);
  if (!program_hash) return program_hash.failure();
  EngineHash out;
  out.program = *program_hash;
  for (const auto& arg : config.args) {
    const std::string path = full_path(arg, config.working_dir);
    if (arg.empty() || !regular_file(path)) continue;
    auto script_hash = file_sha256(path);
    if (!script_hash) return script_hash.failure();
    out.script = *script_hash;
    break;
  }
  return out;
}

bool is_sha256(const std::string& text) {
  if (text.size() != 64) return false;
  for (char c : text)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

}  // namespace referee::engines
