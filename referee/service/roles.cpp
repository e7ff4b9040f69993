// The checks of what each role may change (roles.h).
#include "service/roles.h"

#include <set>

#include "service/core.h"
#include "storage/credentials.h"

namespace referee::service {

namespace {

Error refused(const std::string& why) {
  return Error{why};
}

const char* role_word(Role role) {
  switch (role) {
    case Role::Reader:
      return "a reader (no token)";
    case Role::Author:
      return "an author";
    case Role::Operator:
      return "the operator";
  }
  return "?";
}

}  // namespace

Status may_submit_event(const Principal& who, const Json& document, bool query_priority) {
  if (who.role == Role::Operator) return Ok{};
  if (who.role != Role::Author) return refused("submitting an event needs a token");
  if (query_priority || (document.is_object() && document.contains("priority")))
    return refused("an author cannot set a priority (the operator orders the queue)");
  if (!document.is_object()) return Ok{};  // the submission refuses it as malformed
  if (document.contains("openings") && document["openings"].is_object() &&
      document["openings"].contains("book"))
    return refused("an author cannot name an opening book (a file of the server)");
  if (document.contains("adjudication") && document["adjudication"].is_object() &&
      document["adjudication"].contains("egdb"))
    return refused("an author cannot name an endgame table (a file of the server)");
  if (!document.contains("engine") || !document["engine"].is_array()) return Ok{};
  static const std::set<std::string> kAllowed = {"name", "artifact", "tc", "options"};
  for (const auto& engine : document["engine"]) {
    if (!engine.is_object()) continue;  // the submission refuses it as malformed
    for (auto it = engine.begin(); it != engine.end(); ++it)
      if (!kAllowed.count(it.key()))
        return refused(
            "an author's engine names a registered engine or a stored one (name or artifact, "
            "and tc, options): '" +
            it.key() + "' is the operator's to give");
  }
  return Ok{};
}

Status may_register_engine(const Principal& who, const Json& body,
                           const std::optional<std::string>& existing_submitter) {
  if (who.role == Role::Operator) return Ok{};
  if (who.role != Role::Author) return refused("registering an engine needs a token");
  if (body.is_object()) {
    static const std::set<std::string> kAllowed = {"name", "engine", "artifact", "games",
                                                   "options"};
    for (auto it = body.begin(); it != body.end(); ++it)
      if (!kAllowed.count(it.key()))
        return refused(
            "an author registers an engine the operator defined or a stored one (name, engine "
            "or artifact, games, options): '" +
            it.key() + "' is the operator's to give");
    if (!body.contains("engine") && !body.contains("artifact"))
      return refused(
          "an author's engine runs a registered engine or a stored one: give 'engine' (its "
          "name) or 'artifact' (mybot, mybot@2)");
  }
  if (existing_submitter && *existing_submitter != who.name)
    return refused("engine '" + (body.is_object() ? body.value("name", "") : std::string()) +
                   "' was registered by someone else");
  return Ok{};
}

Status may_control(const Principal& who, const std::string& submitted_by) {
  if (who.role == Role::Operator) return Ok{};
  if (who.role == Role::Author && !submitted_by.empty() && submitted_by == who.name) return Ok{};
  return refused(std::string(role_word(who.role)) + (who.role == Role::Author
                                                         ? " may change only what it submitted"
                                                         : " cannot change anything"));
}

Status may_set_priority(const Principal& who) {
  if (who.role == Role::Operator) return Ok{};
  return refused("only the operator sets priorities");
}

std::string submitter_name(const Principal& who) {
  return who.role == Role::Reader ? std::string() : who.name;
}

Json redact_env(Json spec) {
  if (spec.is_object()) {
    for (auto it = spec.begin(); it != spec.end(); ++it) {
      if (it.key() == "env" && it.value().is_object()) {
        for (auto e = it.value().begin(); e != it.value().end(); ++e) e.value() = "<hidden>";
      } else {
        it.value() = redact_env(std::move(it.value()));
      }
    }
  } else if (spec.is_array()) {
    for (auto& v : spec) v = redact_env(std::move(v));
  }
  return spec;
}

AccessPolicy access_policy(Core& core) {
  AccessPolicy policy;
  policy.operator_token = core.options.token;
  policy.allowed_hosts = core.options.allowed_hosts;
  policy.behind_proxy = core.options.behind_proxy;
  policy.author_of = [&core](const std::string& hash) -> Expected<std::optional<std::string>> {
    auto store = core.reads->get();
    if (!store) return store.failure();
    return storage::credentials::author_of(**store, hash);
  };
  return policy;
}

}  // namespace referee::service
