// The sequential probability ratio test of fishtest and fastchess: H0 "the engine is elo0 better"
// against H1 "elo1 better", decided when the log-likelihood ratio leaves
// [log(β/(1−α)), log((1−β)/α)]. Pure, no I/O; `sprt_update` is what a match runner calls after
// each finished pair, `parse_sprt_config` what a tournament file reader calls on its `sprt` table.
//
// The LLR is the generalised one (GSPRT) of Van den Bergh ("Comments on normalized Elo",
// "Maximum likelihood estimation of a multinomial distribution with a given expectation"): the
// outcome distribution is left free (3 outcomes per game, or 5 per game pair) and, under each
// hypothesis, replaced by the distribution closest to the observed one (maximum likelihood) that
// satisfies the hypothesis; LLR = N · Σ p̂ᵢ log(p1ᵢ / p0ᵢ). Zero counts are replaced by 1e-3, as
// both tools do. Models:
// - normalized (default): the hypotheses fix the t-value (μ − ½)/σ, in normalised Elo
//   (nElo = t · 800/ln 10 per game; a pair's t is √2 times a game's);
// - logistic: the hypotheses fix the expected score μ = 1/(1 + 10^(−elo/400)), in logistic Elo.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "base/expected.h"
#include "ratings/pentanomial.h"

namespace referee::ratings {

enum class SprtModel { kNormalized, kLogistic };

struct SprtConfig {
  double elo0 = 0, elo1 = 5;
  double alpha = 0.05, beta = 0.05;
  SprtModel model = SprtModel::kNormalized;
};

enum class SprtDecision { kContinue, kAcceptH0, kAcceptH1 };

struct SprtState {
  double llr = 0;
  double lower = 0, upper = 0;  // log(β/(1−α)), log((1−β)/α)
  SprtDecision decision = SprtDecision::kContinue;
};

// elo0 < elo1, 0 < α < 0.5, 0 < β < 0.5, all finite. The error names the faulty key.
Status validate_sprt(const SprtConfig& config);

// The command-line form "ELO0,ELO1[,ALPHA,BETA[,MODEL]]" (`referee match --sprt 0,5` or
// `--sprt 0,5,0.05,0.05,logistic`), validated; errors start with "--sprt".
Expected<SprtConfig> parse_sprt_flag(const std::string& text);

// The `sprt` table of a tournament file, as JSON (TOML is read into JSON first): keys elo0 and
// elo1 (required), alpha and beta (default 0.05), model ("normalized" or "logistic"). Unknown keys
// and wrong types are errors that start with `where` ("t.toml: sprt.alpha must be ...").
Expected<SprtConfig> parse_sprt_config(const nlohmann::json& table, const std::string& where);

std::string model_name(SprtModel model);

// The LLR of counts by outcome: 3 (losses, draws, wins) or 5 (pair scores 0, ½, 1, 1½, 2).
double sprt_llr(const SprtConfig& config, const std::vector<double>& counts);

SprtState sprt_update(const SprtConfig& config, const Pentanomial& pairs);
SprtState sprt_update(const SprtConfig& config, const Trinomial& games);

std::string decision_name(SprtDecision decision);  // "continue", "H0 accepted", "H1 accepted"

// One line for a live progress display or a report: "LLR 1.23 (bounds -2.94, 2.94): continue".
std::string sprt_line(const SprtState& state);

}  // namespace referee::ratings
