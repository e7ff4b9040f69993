// Paired-game statistics and the SPRT against values computed by hand from the published formulas
// (Van den Bergh's notes on normalised Elo and on the multinomial with a given expectation, as
// fishtest and fastchess implement them). Each golden value's arithmetic is in its comment; the
// numeric ones were computed independently (bisection on the secular equation, in Python).
#include <catch2/catch.hpp>

#include <cmath>
#include <nlohmann/json.hpp>

#include "ratings/pentanomial.h"
#include "ratings/sprt.h"

using namespace referee::ratings;

namespace {

// Pair counts LL 30, LD 150, WL+DD 300 (WL 100, DD 200), WD 170, WW 50: 700 pairs.
Pentanomial sample_pairs() {
  Pentanomial p;
  p.ll = 30;
  p.ld = 150;
  p.wl = 100;
  p.dd = 200;
  p.wd = 170;
  p.ww = 50;
  return p;
}

SprtConfig config(SprtModel model) {
  SprtConfig c;
  c.elo0 = 0;
  c.elo1 = 5;
  c.model = model;
  return c;
}

}  // namespace

TEST_CASE("pentanomial: a pair's outcome is binned by its total score") {
  Pentanomial p;
  p.add(0, 0);
  p.add(0.5, 0);
  p.add(0, 0.5);
  p.add(1, 0);
  p.add(0.5, 0.5);
  p.add(1, 0.5);
  p.add(1, 1);
  CHECK(p.ll == 1);
  CHECK(p.ld == 2);
  CHECK(p.wl == 1);
  CHECK(p.dd == 1);
  CHECK(p.wd == 1);
  CHECK(p.ww == 1);
  CHECK(p.total() == 7);
  CHECK(p.bins() == std::array<double, 5>{1, 2, 2, 1, 1});
}

TEST_CASE("pentanomial: score, Elo, normalised Elo and LOS of fixed counts") {
  // Per game score s = (150·¼ + 300·½ + 170·¾ + 50·1) / 700 = 365/700 = 0.5214286.
  // Variance of a pair's mean: Σ pᵢ (aᵢ − s)² = 0.0566837; σ/√N = √(0.0566837/700) = 0.0089987.
  // 95 %: s ± 1.959964 · 0.0089987 = [0.5037914, 0.5390658];
  // Elo = −400·log10(1/s − 1): 14.8992 at s, 2.6346 and 27.2011 at the ends.
  // nElo = (s − ½) / (√2 · √0.0566837) · 800/ln 10 = 22.1118, ± 0.0176372 / 0.336701 · 347.4356
  // = 18.1995; LOS = Φ(0.0214286 / 0.0089987) = Φ(2.38130) = 0.991374.
  const EloEstimate e = pentanomial_estimate(sample_pairs(), 0.95);
  CHECK(e.units == 700);
  CHECK(e.score == Approx(365.0 / 700).epsilon(1e-12));
  CHECK(e.sigma * e.sigma == Approx(0.056683673469).epsilon(1e-9));
  CHECK(e.elo == Approx(14.899222968).epsilon(1e-9));
  CHECK(e.elo_low == Approx(2.634609644).epsilon(1e-8));
  CHECK(e.elo_high == Approx(27.201074105).epsilon(1e-9));
  CHECK(e.nelo == Approx(22.111770886).epsilon(1e-9));
  CHECK(e.nelo_error == Approx(18.199454525).epsilon(1e-9));
  CHECK(e.los == Approx(0.991374060761).epsilon(1e-9));
}

TEST_CASE("trinomial: score, Elo, normalised Elo and LOS of fixed counts") {
  // W 120, D 300, L 100: s = (120 + 150)/520 = 0.5192308; variance per game
  // (120·(1 − s)² + 300·(½ − s)² + 100·s²)/520 = 0.1053994; σ/√N = 0.0142369;
  // Elo 13.3695 (95 %: −6.0273 to 32.8501); nElo = 0.0192308/0.324653 · 347.4356 = 20.5803.
  Trinomial t;
  t.wins = 120;
  t.draws = 300;
  t.losses = 100;
  const EloEstimate e = trinomial_estimate(t, 0.95);
  CHECK(e.units == 520);
  CHECK(e.score == Approx(270.0 / 520).epsilon(1e-12));
  CHECK(e.sigma * e.sigma == Approx(0.105399408284).epsilon(1e-9));
  CHECK(e.elo == Approx(13.369502195).epsilon(1e-9));
  CHECK(e.elo_low == Approx(-6.027339846).epsilon(1e-8));
  CHECK(e.elo_high == Approx(32.850091103).epsilon(1e-9));
  CHECK(e.nelo == Approx(20.580307918).epsilon(1e-9));
  CHECK(e.nelo_error == Approx(29.862125581).epsilon(1e-9));
  CHECK(e.los == Approx(0.911614360806).epsilon(1e-9));
}

TEST_CASE("pentanomial: no pairs, or all pairs equal, give no spurious numbers") {
  const EloEstimate none = pentanomial_estimate(Pentanomial{}, 0.95);
  CHECK(none.units == 0);
  CHECK(none.elo == 0);
  CHECK(std::isinf(none.elo_high));
  Pentanomial all_ww;
  all_ww.ww = 10;
  const EloEstimate ww = pentanomial_estimate(all_ww, 0.95);
  CHECK(ww.score == 1);
  CHECK(std::isinf(ww.elo));
  CHECK(ww.los == 1);
}

TEST_CASE("sprt: the logistic LLR of trinomial counts, solved by hand") {
  // L 100, D 300, W 120 (N = 520), elo0 0, elo1 5. Under each hypothesis the distribution closest
  // to p̂ = (100, 300, 120)/520 with expectation s is pᵢ = p̂ᵢ / (1 + x (aᵢ − s)), x solving
  // Σ p̂ᵢ (aᵢ − s)/(1 + x (aᵢ − s)) = 0 — a quadratic for three outcomes.
  // H0, s0 = ½: φ = (−½, 0, ½): p̂W/(1 + x/2) = p̂L/(1 − x/2) gives x = 2 (p̂W − p̂L)/(p̂W + p̂L)
  //   = 40/220, and p0 = (110, 300, 110)/520.
  // H1, s1 = 1/(1 + 10^(−5/400)) = 0.5071951: φ = (−0.5071951, −0.0071951, 0.4928049); the
  //   quadratic 0.0017984 x² − 0.1058041 x + 0.0120357 = 0 has the admissible root
  //   x = 0.1139753, and p1 = (0.2041066, 0.5773966, 0.2184968).
  // LLR = 520 · Σ p̂ᵢ log(p1ᵢ / p0ᵢ) = 0.5534315.
  Trinomial t;
  t.wins = 120;
  t.draws = 300;
  t.losses = 100;
  const SprtState s = sprt_update(config(SprtModel::kLogistic), t);
  CHECK(s.llr == Approx(0.55343154968).epsilon(1e-8));
  CHECK(sprt_llr(config(SprtModel::kLogistic), {100, 300, 120}) == Approx(s.llr).epsilon(1e-12));
  // Van den Bergh's Brownian approximation, (s1 − s0)(2μ̂ − s0 − s1)/(2σ̂²)·N = 0.5549445, agrees to
  // 0.3 %.
  CHECK(s.llr == Approx(0.5549445280).epsilon(0.005));
}

TEST_CASE("sprt: LLRs of fixed pentanomial counts in both models") {
  // p̂ = (30, 150, 300, 170, 50)/700 over pair scores a = (0, ¼, ½, ¾, 1).
  // H0 (0 Elo, and equally t = 0) is the same distribution in both models: expectation ½,
  //   p0 = (0.0528025, 0.2365642, 0.4285714, 0.2219545, 0.0601073).
  // logistic H1, s1 = 0.5071951: p1 = (0.0491048, 0.2290645, 0.4293464, 0.2289144, 0.0635700);
  //   LLR = 700 · Σ p̂ᵢ log(p1ᵢ/p0ᵢ) = 1.5808034.
  // normalized H1, t1 = √2 · 5 / (800/ln 10) = 0.0203520 (a pair's t is √2 a game's), by the
  //   fixed-point iteration of section 4.1: p1 = (0.0504046, 0.2315212, 0.4288751, 0.2266574,
  //   0.0625416); LLR = 1.1354631.
  const SprtState logistic = sprt_update(config(SprtModel::kLogistic), sample_pairs());
  CHECK(logistic.llr == Approx(1.58080338550).epsilon(1e-8));
  const SprtState normalized = sprt_update(config(SprtModel::kNormalized), sample_pairs());
  CHECK(normalized.llr == Approx(1.13546313122).epsilon(1e-8));
  // Trinomial normalized, the same 520 games as above: 0.3887166.
  CHECK(sprt_llr(config(SprtModel::kNormalized), {100, 300, 120}) ==
        Approx(0.38871656167).epsilon(1e-8));
}

TEST_CASE("sprt: zero counts are replaced by 1e-3, as fishtest and fastchess do") {
  // (0, 10, 40, 30, 20) becomes (0.001, 10, 40, 30, 20), N = 100.001: normalized 1.0976295,
  // logistic 1.4286221.
  CHECK(sprt_llr(config(SprtModel::kNormalized), {0, 10, 40, 30, 20}) ==
        Approx(1.09762952241).epsilon(1e-7));
  CHECK(sprt_llr(config(SprtModel::kLogistic), {0, 10, 40, 30, 20}) ==
        Approx(1.42862210110).epsilon(1e-7));
}

TEST_CASE("sprt: absurd hypotheses still give a finite LLR of the right sign") {
  // nElo 2000 has no distribution on five outcomes near these counts (the secular equation has no
  // root): the closed-form approximation of section 4.2 takes over, and it is strongly for H0.
  SprtConfig c = config(SprtModel::kNormalized);
  c.elo1 = 2000;
  const double llr = sprt_update(c, sample_pairs()).llr;
  CHECK(std::isfinite(llr));
  CHECK(llr < -100);
  c.model = SprtModel::kLogistic;
  c.elo0 = -1500;
  c.elo1 = 1500;
  CHECK(std::isfinite(sprt_update(c, sample_pairs()).llr));
}

TEST_CASE("sprt: bounds and decisions") {
  // α = β = 0.05: bounds log(0.05/0.95) = −2.944439 and log(0.95/0.05) = 2.944439.
  SprtConfig c = config(SprtModel::kNormalized);
  const SprtState start = sprt_update(c, Pentanomial{});
  CHECK(start.llr == 0);
  CHECK(start.lower == Approx(-2.944438979).epsilon(1e-9));
  CHECK(start.upper == Approx(2.944438979).epsilon(1e-9));
  CHECK(start.decision == SprtDecision::kContinue);
  CHECK(decision_name(start.decision) == "continue");
  // Ten times the sample pairs: the LLR scales with N (the distributions do not change), 11.35.
  Pentanomial big = sample_pairs();
  big.ll *= 10;
  big.ld *= 10;
  big.wl *= 10;
  big.dd *= 10;
  big.wd *= 10;
  big.ww *= 10;
  const SprtState h1 = sprt_update(c, big);
  CHECK(h1.llr == Approx(11.3546313122).epsilon(1e-7));
  CHECK(h1.decision == SprtDecision::kAcceptH1);
  CHECK(decision_name(h1.decision) == "H1 accepted");
  CHECK(sprt_line(h1) == "LLR 11.35 (bounds -2.94, 2.94): H1 accepted");
  // Mirrored counts are evidence the other way: H0 accepted.
  Pentanomial mirrored;
  mirrored.ll = big.ww;
  mirrored.ld = big.wd;
  mirrored.wl = big.wl;
  mirrored.dd = big.dd;
  mirrored.wd = big.ld;
  mirrored.ww = big.ll;
  const SprtState h0 = sprt_update(c, mirrored);
  CHECK(h0.llr < h0.lower);
  CHECK(h0.decision == SprtDecision::kAcceptH0);
  // Asymmetric error rates: α = 0.01, β = 0.2: bounds log(0.2/0.99) and log(0.8/0.01).
  c.alpha = 0.01;
  c.beta = 0.2;
  const SprtState skew = sprt_update(c, sample_pairs());
  CHECK(skew.lower == Approx(std::log(0.2 / 0.99)).epsilon(1e-12));
  CHECK(skew.upper == Approx(std::log(80.0)).epsilon(1e-12));
}

TEST_CASE("sprt: configurations are validated, each error naming the key") {
  SprtConfig c;
  CHECK(validate_sprt(c).ok());
  c.elo1 = c.elo0;
  CHECK(validate_sprt(c).error() == "elo0 must be less than elo1");
  c = SprtConfig{};
  c.alpha = 0;
  CHECK(validate_sprt(c).error() == "alpha must be between 0 and 0.5");
  c = SprtConfig{};
  c.beta = 1;
  CHECK(validate_sprt(c).error() == "beta must be between 0 and 0.5");
  c = SprtConfig{};
  c.alpha = 0.5;
  CHECK(validate_sprt(c).error() == "alpha must be between 0 and 0.5");
  c = SprtConfig{};
  c.beta = 0.49;
  CHECK(validate_sprt(c).ok());
  c = SprtConfig{};
  c.elo0 = std::nan("");
  CHECK(validate_sprt(c).error() == "elo0 must be a finite number");
}

TEST_CASE("sprt: the sprt table of a tournament file parses into the plain struct") {
  using nlohmann::json;
  auto ok = parse_sprt_config(
      json::parse(R"({"elo0": 0, "elo1": 5.5, "alpha": 0.1, "beta": 0.2, "model": "logistic"})"),
      "t.toml: sprt");
  REQUIRE(ok.ok());
  CHECK(ok->elo0 == 0);
  CHECK(ok->elo1 == 5.5);
  CHECK(ok->alpha == 0.1);
  CHECK(ok->beta == 0.2);
  CHECK(ok->model == SprtModel::kLogistic);
  auto defaults = parse_sprt_config(json::parse(R"({"elo0": -1, "elo1": 3})"), "sprt");
  REQUIRE(defaults.ok());
  CHECK(defaults->alpha == 0.05);
  CHECK(defaults->beta == 0.05);
  CHECK(defaults->model == SprtModel::kNormalized);

  auto error = [](const std::string& text) {
    auto r = parse_sprt_config(json::parse(text), "t.toml: sprt");
    REQUIRE_FALSE(r.ok());
    return r.error();
  };
  CHECK(error(R"({"elo1": 5})") == "t.toml: sprt needs elo0 and elo1");
  CHECK(error(R"({"elo0": "zero", "elo1": 5})") == "t.toml: sprt.elo0 must be a number");
  CHECK(error(R"({"elo0": 0, "elo1": 5, "model": "bayesian"})") ==
        "t.toml: sprt.model must be \"normalized\" or \"logistic\"");
  CHECK(error(R"({"elo0": 0, "elo1": 5, "alfa": 0.1})") ==
        "t.toml: sprt: unknown key 'alfa' (expected elo0, elo1, alpha, beta, model)");
  CHECK(error(R"({"elo0": 5, "elo1": 0})") == "t.toml: sprt: elo0 must be less than elo1");
  CHECK(error(R"({"elo0": 0, "elo1": 5, "alpha": 1.5})") ==
        "t.toml: sprt: alpha must be between 0 and 0.5");
  CHECK(error(R"([1, 2])") == "t.toml: sprt must be a table");
}

TEST_CASE("sprt: the --sprt flag takes ELO0,ELO1[,ALPHA,BETA[,MODEL]]") {
  auto two = parse_sprt_flag("0,5");
  REQUIRE(two.ok());
  CHECK(two->elo0 == 0);
  CHECK(two->elo1 == 5);
  CHECK(two->alpha == 0.05);
  CHECK(two->model == SprtModel::kNormalized);
  auto all = parse_sprt_flag("-1.5,2.5,0.1,0.2,logistic");
  REQUIRE(all.ok());
  CHECK(all->elo0 == -1.5);
  CHECK(all->elo1 == 2.5);
  CHECK(all->alpha == 0.1);
  CHECK(all->beta == 0.2);
  CHECK(all->model == SprtModel::kLogistic);
  auto error = [](const std::string& text) {
    auto r = parse_sprt_flag(text);
    REQUIRE_FALSE(r.ok());
    return r.error();
  };
  CHECK(error("5") == "--sprt must be ELO0,ELO1[,ALPHA,BETA[,MODEL]], not '5'");
  CHECK(error("0,5,0.05") == "--sprt must be ELO0,ELO1[,ALPHA,BETA[,MODEL]], not '0,5,0.05'");
  CHECK(error("0,five") == "--sprt: elo1 must be a number, not 'five'");
  CHECK(error("0,5x") == "--sprt: elo1 must be a number, not '5x'");
  CHECK(error("0,,") == "--sprt must be ELO0,ELO1[,ALPHA,BETA[,MODEL]], not '0,,'");
  CHECK(error("5,0") == "--sprt: elo0 must be less than elo1");
  CHECK(error("0,5,0.5,0.05") == "--sprt: alpha must be between 0 and 0.5");
  CHECK(error("0,5,0.05,0.05,bayes") ==
        "--sprt: the model must be normalized or logistic, not 'bayes'");
}
