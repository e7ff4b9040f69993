// What each role may change (principal.h), as checks the handlers make before any work, each a
// function of the Principal and of what the request names, so that the rules read in one place
// and are tested without a daemon. A refusal is a Status whose error is the one line of a 403.
//
// Decisions:
// - The operator may do everything; a reader changes nothing.
// - An author submits events whose engines are registered engines (POST /api/engines by the
//   operator, or an author's own entry of one) or stored ones (`artifact = "mybot@2"`, any
//   author's: playing against a version is allowed to all): each [[engine]] table names one and
//   may add only `tc` and `options`; the daemon fills in the rest from the registry, or pins the
//   artifact (resolve_artifacts). Never `command`, `args`,
//   `dir`, `env`, limits or a `sha256`, never an opening book (a file of the server), nor a
//   priority (the operator orders the queue). `base` is harmless then (nothing is relative).
// - An author registers for the ladders an engine the operator defined: {"name", "engine" (the
//   registered engine it runs), "games", "options"}, or a stored engine: {"name", "artifact"
//   ("mybot", "mybot@2"), "games", "options"}, anyone's (registering another's artifact is
//   playing against it); and may register again or retire only an entry it made.
// - An author pauses, resumes and cancels only the events it submitted (events.submitted_by);
//   ladders are the daemon's and no author's.
// - Reads show no engine's env values, to any role (redact_env): they often hold credentials.
#pragma once

#include <optional>
#include <string>

#include "base/expected.h"
#include "service/principal.h"
#include "service/views.h"

namespace referee::service {

// The document of POST /api/events (before the daemon fills in an author's engines), and
// whether the request gave `priority` as a query parameter.
Status may_submit_event(const Principal& who, const Json& document, bool query_priority);
// The body of POST /api/engines; `existing_submitter`: the submitter of the registered engine of
// that name, nullopt when there is none.
Status may_register_engine(const Principal& who, const Json& body,
                           const std::optional<std::string>& existing_submitter);
// Pause, resume, cancel or retire something `submitted_by` submitted.
Status may_control(const Principal& who, const std::string& submitted_by);
// PATCH /api/events/{id} (priority): the operator only.
Status may_set_priority(const Principal& who);
// The name recorded as the submitter of what `who` makes.
std::string submitter_name(const Principal& who);

// `spec` (an event's stored specification, or any JSON holding engine tables) with the value of
// every "env" object's entries replaced by "<hidden>"; the names stay.
Json redact_env(Json spec);

}  // namespace referee::service
