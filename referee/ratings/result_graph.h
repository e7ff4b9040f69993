// The graphs behind two questions a rating table must answer before it fits anything (Ordo's
// "connectivity" check): which engines are comparable at all, and whose maximum-likelihood rating
// is finite.
//
// - Engines that played each other (directly or through others) form a played group; ratings of
//   two groups that never met share no scale, so each group gets its own table.
// - Within a group, draw an edge i → j when i scored any point against j (a win or a draw). The
//   maximum-likelihood ratings are all finite exactly when this graph is strongly connected
//   (Zermelo 1929, Ford 1957): otherwise some set of engines won every game against the rest, and
//   the gap between them is infinite. Its strongly connected components are the sets whose
//   internal differences are finite.
//
// Note the weaker notion "connected by non-degenerate results" (pairs with both a win and a loss or
// a draw) is not what decides finiteness: a cycle A beats B, B beats C, C beats A has no such pair
// yet all three ratings are finite (and equal).
#pragma once

#include <cstddef>
#include <vector>

namespace referee::ratings {

using Adjacency = std::vector<std::vector<std::size_t>>;

// Connected components of an undirected graph (every edge listed both ways). Each component is
// sorted; components come in the order of their smallest vertex.
std::vector<std::vector<std::size_t>> connected_components(const Adjacency& graph);

// Strongly connected components of a directed graph, each sorted, in the order of their smallest
// vertex.
std::vector<std::vector<std::size_t>> strong_components(const Adjacency& graph);

// A topological rank of each strongly connected component (as returned above) in the graph of
// components: a component's edges all go to components of higher rank (sources first; ties by
// component order).
std::vector<std::size_t> component_ranks(const Adjacency& graph,
                                         const std::vector<std::vector<std::size_t>>& components);

}  // namespace referee::ratings
