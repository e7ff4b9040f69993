#include "ratings/result_graph.h"

#include <algorithm>

namespace referee::ratings {

namespace {

void sort_components(std::vector<std::vector<std::size_t>>& components) {
  for (auto& c : components) std::sort(c.begin(), c.end());
  std::sort(components.begin(), components.end(),
            [](const auto& a, const auto& b) { return a.front() < b.front(); });
}

// Vertices in order of finishing time of an iterative depth-first search.
std::vector<std::size_t> finish_order(const Adjacency& graph) {
  const std::size_t n = graph.size();
  std::vector<bool> seen(n, false);
  std::vector<std::size_t> order;
  std::vector<std::pair<std::size_t, std::size_t>> stack;  // vertex, next edge
  for (std::size_t root = 0; root < n; ++root) {
    if (seen[root]) continue;
    seen[root] = true;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      if (next < graph[v].size()) {
        const std::size_t w = graph[v][next++];
        if (!seen[w]) {
          seen[w] = true;
          stack.push_back({w, 0});
        }
      } else {
        order.push_back(v);
        stack.pop_back();
      }
    }
  }
  return order;
}

// Components reached from each start vertex in `starts` order, over `graph`.
std::vector<std::vector<std::size_t>> sweep(const Adjacency& graph,
                                            const std::vector<std::size_t>& starts) {
  std::vector<bool> seen(graph.size(), false);
  std::vector<std::vector<std::size_t>> components;
  for (std::size_t root : starts) {
    if (seen[root]) continue;
    seen[root] = true;
    std::vector<std::size_t> component, stack{root};
    while (!stack.empty()) {
      const std::size_t v = stack.back();
      stack.pop_back();
      component.push_back(v);
      for (std::size_t w : graph[v])
        if (!seen[w]) {
          seen[w] = true;
          stack.push_back(w);
        }
    }
    components.push_back(std::move(component));
  }
  return components;
}

}  // namespace

std::vector<std::vector<std::size_t>> connected_components(const Adjacency& graph) {
  std::vector<std::size_t> starts(graph.size());
  for (std::size_t i = 0; i < starts.size(); ++i) starts[i] = i;
  auto components = sweep(graph, starts);
  sort_components(components);
  return components;
}

std::vector<std::vector<std::size_t>> strong_components(const Adjacency& graph) {
  // Kosaraju: finish order on the graph, then sweeps of the reversed graph in reverse order.
  Adjacency reversed(graph.size());
  for (std::size_t v = 0; v < graph.size(); ++v)
    for (std::size_t w : graph[v]) reversed[w].push_back(v);
  auto order = finish_order(graph);
  std::reverse(order.begin(), order.end());
  auto components = sweep(reversed, order);
  sort_components(components);
  return components;
}

std::vector<std::size_t> component_ranks(const Adjacency& graph,
                                         const std::vector<std::vector<std::size_t>>& components) {
  const std::size_t c = components.size();
  std::vector<std::size_t> of(graph.size(), 0);
  for (std::size_t k = 0; k < c; ++k)
    for (std::size_t v : components[k]) of[v] = k;
  std::vector<std::vector<std::size_t>> next(c);
  std::vector<std::size_t> incoming(c, 0);
  for (std::size_t v = 0; v < graph.size(); ++v)
    for (std::size_t w : graph[v])
      if (of[v] != of[w]) {
        next[of[v]].push_back(of[w]);
        ++incoming[of[w]];
      }
  // Kahn's algorithm, always taking the lowest-numbered ready component.
  std::vector<std::size_t> rank(c, 0), ready;
  for (std::size_t k = 0; k < c; ++k)
    if (incoming[k] == 0) ready.push_back(k);
  for (std::size_t r = 0; !ready.empty(); ++r) {
    auto it = std::min_element(ready.begin(), ready.end());
    const std::size_t k = *it;
    ready.erase(it);
    rank[k] = r;
    for (std::size_t w : next[k])
      if (--incoming[w] == 0) ready.push_back(w);
  }
  return rank;
}

}  // namespace referee::ratings
