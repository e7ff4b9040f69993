#include "ratings/sprt.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "ratings/stats_math.h"

namespace referee::ratings {

namespace {

using Pdf = std::vector<double>;

const double kNeloPerT = 800.0 / std::log(10.0);

// The x in (−1/max φ, −1/min φ) with Σ p̂ᵢ φᵢ / (1 + x φᵢ) = 0 (a decreasing function, +∞ at the
// left end, −∞ at the right); nullopt when φ does not change sign.
std::optional<double> secular(const Pdf& observed, const std::vector<double>& phi) {
  const double lo_phi = *std::min_element(phi.begin(), phi.end());
  const double hi_phi = *std::max_element(phi.begin(), phi.end());
  if (!(lo_phi < 0 && hi_phi > 0)) return std::nullopt;
  double lo = -1 / hi_phi, hi = -1 / lo_phi;
  for (int i = 0; i < 200; ++i) {
    const double mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    double f = 0;
    for (std::size_t k = 0; k < phi.size(); ++k) f += observed[k] * phi[k] / (1 + mid * phi[k]);
    (f > 0 ? lo : hi) = mid;
  }
  return lo + (hi - lo) / 2;
}

std::pair<double, double> mean_variance(const std::vector<double>& values, const Pdf& p) {
  double mean = 0, var = 0;
  for (std::size_t i = 0; i < p.size(); ++i) mean += p[i] * values[i];
  for (std::size_t i = 0; i < p.size(); ++i) var += p[i] * (values[i] - mean) * (values[i] - mean);
  return {mean, var};
}

// The distribution closest to `observed` (maximum likelihood) with expectation s.
std::optional<Pdf> with_expectation(const std::vector<double>& values, const Pdf& observed,
                                    double s) {
  std::vector<double> phi(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) phi[i] = values[i] - s;
  auto x = secular(observed, phi);
  if (!x) return std::nullopt;
  Pdf p(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) p[i] = observed[i] / (1 + *x * phi[i]);
  return p;
}

// The distribution closest to `observed` with t-value (μ − ½)/σ = t: fixed-point iteration from
// the uniform distribution, each step solving the secular equation with
// φᵢ = aᵢ − ½ − t·σ·(1 + ((aᵢ − μ)/σ)²)/2 at the previous step's μ and σ.
std::optional<Pdf> with_t_value(const std::vector<double>& values, const Pdf& observed, double t) {
  const std::size_t n = values.size();
  Pdf p(n, 1.0 / static_cast<double>(n));
  for (int iteration = 0; iteration < 100; ++iteration) {
    auto [mu, var] = mean_variance(values, p);
    const double sigma = std::sqrt(var);
    std::vector<double> phi(n);
    for (std::size_t i = 0; i < n; ++i) {
      const double u = (values[i] - mu) / sigma;
      phi[i] = values[i] - 0.5 - t * sigma * (1 + u * u) / 2;
    }
    auto x = secular(observed, phi);
    if (!x) return std::nullopt;
    double change = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double next = observed[i] / (1 + *x * phi[i]);
      change = std::max(change, std::abs(next - p[i]));
      p[i] = next;
    }
    if (change < 1e-13) break;
  }
  return p;
}

double log_ratio(const Pdf& observed, const Pdf& p0, const Pdf& p1, double n) {
  double sum = 0;
  for (std::size_t i = 0; i < observed.size(); ++i)
    sum += observed[i] * (std::log(p1[i]) - std::log(p0[i]));
  return n * sum;
}

// Van den Bergh's closed-form approximation (normalized Elo, section 4.2), used only if the exact
// maximum-likelihood distribution does not exist (φ without a sign change, extreme hypotheses).
double normalized_approximation(const std::vector<double>& values, const Pdf& observed, double n,
                                double t0, double t1) {
  auto [mu, var] = mean_variance(values, observed);
  const double t = (mu - 0.5) / std::sqrt(var);
  return n / 2 * std::log((1 + (t - t0) * (t - t0)) / (1 + (t - t1) * (t - t1)));
}

}  // namespace

std::string model_name(SprtModel model) {
  return model == SprtModel::kNormalized ? "normalized" : "logistic";
}

std::string decision_name(SprtDecision decision) {
  switch (decision) {
    case SprtDecision::kAcceptH0:
      return "H0 accepted";
    case SprtDecision::kAcceptH1:
      return "H1 accepted";
    default:
      return "continue";
  }
}

std::string sprt_line(const SprtState& state) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "LLR %.2f (bounds %.2f, %.2f): ", state.llr, state.lower,
                state.upper);
  return buf + decision_name(state.decision);
}

Status validate_sprt(const SprtConfig& c) {
  for (auto [name, v] : {std::pair{"elo0", c.elo0}, std::pair{"elo1", c.elo1},
                         std::pair{"alpha", c.alpha}, std::pair{"beta", c.beta}})
    if (!std::isfinite(v)) return Error{std::string(name) + " must be a finite number"};
  if (!(c.elo0 < c.elo1)) return Error{"elo0 must be less than elo1"};
  // Error rates of 0.5 or more make a coin toss a better test (and α + β ≥ 1 inverts the bounds).
  if (!(c.alpha > 0 && c.alpha < 0.5)) return Error{"alpha must be between 0 and 0.5"};
  if (!(c.beta > 0 && c.beta < 0.5)) return Error{"beta must be between 0 and 0.5"};
  return Ok{};
}

Expected<SprtConfig> parse_sprt_flag(const std::string& text) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    fields.push_back(text.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (fields.size() != 2 && fields.size() != 4 && fields.size() != 5)
    return Error{"--sprt must be ELO0,ELO1[,ALPHA,BETA[,MODEL]], not '" + text + "'"};
  SprtConfig c;
  double* targets[] = {&c.elo0, &c.elo1, &c.alpha, &c.beta};
  const char* names[] = {"elo0", "elo1", "alpha", "beta"};
  for (std::size_t i = 0; i < fields.size() && i < 4; ++i) {
    std::size_t used = 0;
    try {
      *targets[i] = std::stod(fields[i], &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (fields[i].empty() || used != fields[i].size())
      return Error{"--sprt: " + std::string(names[i]) + " must be a number, not '" + fields[i] +
                   "'"};
  }
  if (fields.size() == 5) {
    if (fields[4] == "normalized")
      c.model = SprtModel::kNormalized;
    else if (fields[4] == "logistic")
      c.model = SprtModel::kLogistic;
    else
      return Error{"--sprt: the model must be normalized or logistic, not '" + fields[4] + "'"};
  }
  if (auto ok = validate_sprt(c); !ok) return Error{"--sprt: " + ok.error()};
  return c;
}

Expected<SprtConfig> parse_sprt_config(const nlohmann::json& table, const std::string& where) {
  if (!table.is_object()) return Error{where + " must be a table"};
  SprtConfig c;
  bool have0 = false, have1 = false;
  for (const auto& [key, value] : table.items()) {
    double* target = key == "elo0"    ? &c.elo0
                     : key == "elo1"  ? &c.elo1
                     : key == "alpha" ? &c.alpha
                     : key == "beta"  ? &c.beta
                                      : nullptr;
    if (target) {
      if (!value.is_number()) return Error{where + "." + key + " must be a number"};
      *target = value.get<double>();
      have0 = have0 || key == "elo0";
      have1 = have1 || key == "elo1";
    } else if (key == "model") {
      const std::string m = value.is_string() ? value.get<std::string>() : "";
      if (m == "normalized")
        c.model = SprtModel::kNormalized;
      else if (m == "logistic")
        c.model = SprtModel::kLogistic;
      else
        return Error{where + ".model must be \"normalized\" or \"logistic\""};
    } else {
      return Error{where + ": unknown key '" + key + "' (expected elo0, elo1, alpha, beta, model)"};
    }
  }
  if (!have0 || !have1) return Error{where + " needs elo0 and elo1"};
  if (auto ok = validate_sprt(c); !ok) return Error{where + ": " + ok.error()};
  return c;
}

double sprt_llr(const SprtConfig& config, const std::vector<double>& counts) {
  const std::size_t k = counts.size();
  std::vector<double> values(k);
  for (std::size_t i = 0; i < k; ++i)
    values[i] = static_cast<double>(i) / static_cast<double>(k - 1);
  double n = 0;
  Pdf observed(k);
  for (std::size_t i = 0; i < k; ++i) {
    observed[i] = counts[i] > 0 ? counts[i] : 1e-3;
    n += observed[i];
  }
  for (double& p : observed) p /= n;
  if (config.model == SprtModel::kLogistic) {
    auto p0 = with_expectation(values, observed, score_of_elo(config.elo0));
    auto p1 = with_expectation(values, observed, score_of_elo(config.elo1));
    if (!p0 || !p1) return 0;  // cannot happen: every outcome has mass and 0 < s < 1
    return log_ratio(observed, *p0, *p1, n);
  }
  const double per_unit = k == 5 ? std::sqrt(2.0) : 1.0;
  const double t0 = config.elo0 / kNeloPerT * per_unit, t1 = config.elo1 / kNeloPerT * per_unit;
  auto p0 = with_t_value(values, observed, t0);
  auto p1 = with_t_value(values, observed, t1);
  if (!p0 || !p1) return normalized_approximation(values, observed, n, t0, t1);
  return log_ratio(observed, *p0, *p1, n);
}

namespace {

SprtState decide(const SprtConfig& config, double llr) {
  SprtState s;
  s.llr = llr;
  s.lower = std::log(config.beta / (1 - config.alpha));
  s.upper = std::log((1 - config.beta) / config.alpha);
  s.decision = llr >= s.upper   ? SprtDecision::kAcceptH1
               : llr <= s.lower ? SprtDecision::kAcceptH0
                                : SprtDecision::kContinue;
  return s;
}

}  // namespace

SprtState sprt_update(const SprtConfig& config, const Pentanomial& pairs) {
  const auto b = pairs.bins();
  return decide(config, pairs.total() ? sprt_llr(config, {b.begin(), b.end()}) : 0.0);
}

SprtState sprt_update(const SprtConfig& config, const Trinomial& games) {
  return decide(config, games.total() ? sprt_llr(config, {double(games.losses), double(games.draws),
                                                          double(games.wins)})
                                      : 0.0);
}

}  // namespace referee::ratings
