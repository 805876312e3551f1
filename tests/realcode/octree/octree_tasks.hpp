/* octree_tasks.hpp: the task-parallel kernels of a Barnes-Hut style octree
 * code, as templates (instantiated for double and float by octree.cpp).
 * The OpenMP is here, in the header: a recursive build with an if() cutoff,
 * a centre-of-mass pass with a final() cutoff, a traversal whose tasks a
 * taskgroup waits for, per-level reductions chained by depend clauses, a named
 * critical, an atomic, and a leaf loop whose schedule an #ifdef picks. */
#ifndef OCTREE_TASKS_HPP
#define OCTREE_TASKS_HPP
#include <omp.h>
#include <array>
#include <cmath>
#include <vector>

namespace octree {

constexpr int kLeafSize = 8;      // a node of at most this many points is a leaf
constexpr int kMaxDepth = 14;     // ... and so is any node this deep
constexpr int kLevels = kMaxDepth + 1;
constexpr int kIfCutoff = 4096;   // build: a child of more points is a deferred task
constexpr int kFinalDepth = 4;    // mass: tasks made below this depth are final

template <class Real>
struct Point {
    Real x, y, z, m;
};

template <class Real>
struct Node {
    Real cx, cy, cz, half;     // the box: centre and half width
    int lo, hi, depth;         // points idx[lo, hi)
    bool leaf;
    Node *child[8];
    Real mass, mx, my, mz;     // mass and centre of mass
    long tag;                  // set by the traversal's visitor
};

template <class Real>
struct Tree {
    std::vector<Point<Real>> pts;
    std::vector<int> idx;
    std::vector<Node<Real> *> leaves;
    Node<Real> *root = nullptr;
    long level_nodes[kLevels] = {};
};

template <class Real>
inline int octant_of(const Point<Real> &p, const Node<Real> &n)
{
    return (p.x >= n.cx ? 1 : 0) | (p.y >= n.cy ? 2 : 0) | (p.z >= n.cz ? 4 : 0);
}

template <class Real>
inline bool is_leaf(const Node<Real> &n)
{
    return n.hi - n.lo <= kLeafSize || n.depth == kMaxDepth;
}

/* stable split of idx[n.lo, n.hi) by octant; b[o]..b[o+1] is octant o's range */
template <class Real>
inline std::array<int, 9> split(const std::vector<Point<Real>> &pts, std::vector<int> &idx, const Node<Real> &n)
{
    std::array<int, 9> b{};
    std::vector<int> tmp(idx.begin() + n.lo, idx.begin() + n.hi);
    int cnt[8] = {};
    for (int i : tmp)
        cnt[octant_of(pts[i], n)]++;
    b[0] = n.lo;
    for (int o = 0; o < 8; o++)
        b[o + 1] = b[o] + cnt[o];
    int pos[8];
    for (int o = 0; o < 8; o++)
        pos[o] = b[o];
    for (int i : tmp)
        idx[pos[octant_of(pts[i], n)]++] = i;
    return b;
}

template <class Real>
inline Node<Real> *make_node(Real cx, Real cy, Real cz, Real half, int lo, int hi, int depth)
{
    Node<Real> *c = new Node<Real>{};
    c->cx = cx; c->cy = cy; c->cz = cz; c->half = half;
    c->lo = lo; c->hi = hi; c->depth = depth;
    c->leaf = false;
    for (auto &k : c->child)
        k = nullptr;
    return c;
}

template <class Real>
inline Node<Real> *make_child(const Node<Real> &n, int o, int lo, int hi)
{
    Real h = n.half / 2;
    return make_node<Real>(n.cx + ((o & 1) ? h : -h), n.cy + ((o & 2) ? h : -h), n.cz + ((o & 4) ? h : -h),
                           h, lo, hi, n.depth + 1);
}

/* the recursive build: one task per non-empty child, deferred above the cutoff */
template <class Real>
void build(Tree<Real> &t, Node<Real> *n)
{
    if (is_leaf(*n)) {
        n->leaf = true;
#pragma omp critical(leaf_list)
        t.leaves.push_back(n);
        return;
    }
    std::array<int, 9> b = split(t.pts, t.idx, *n);
    for (int o = 0; o < 8; o++) {
        if (b[o] == b[o + 1])
            continue;
        Node<Real> *c = make_child(*n, o, b[o], b[o + 1]);
        n->child[o] = c;
#pragma omp task firstprivate(c) shared(t) if(c->hi - c->lo > kIfCutoff)
        build(t, c);
    }
#pragma omp taskwait
}

template <class Real>
inline void leaf_mass(const Tree<Real> &t, Node<Real> *n)
{
    double m = 0, x = 0, y = 0, z = 0;
    for (int i = n->lo; i < n->hi; i++) {
        const Point<Real> &p = t.pts[t.idx[i]];
        m += p.m; x += p.m * p.x; y += p.m * p.y; z += p.m * p.z;
    }
    n->mass = Real(m);
    n->mx = Real(x / m); n->my = Real(y / m); n->mz = Real(z / m);
}

/* centre of mass, bottom up: a task per internal child, final below a depth */
template <class Real>
void mass(Tree<Real> &t, Node<Real> *n)
{
    if (n->leaf) {
        leaf_mass(t, n);
        return;
    }
    for (int o = 0; o < 8; o++) {
        Node<Real> *c = n->child[o];
        if (!c)
            continue;
        if (c->leaf) {
            leaf_mass(t, c);
            continue;
        }
#pragma omp task firstprivate(c) shared(t) final(n->depth >= kFinalDepth)
        mass(t, c);
    }
#pragma omp taskwait
    double m = 0, x = 0, y = 0, z = 0;
    for (Node<Real> *c : n->child)
        if (c) {
            m += c->mass; x += double(c->mass) * c->mx; y += double(c->mass) * c->my; z += double(c->mass) * c->mz;
        }
    n->mass = Real(m);
    n->mx = Real(x / m); n->my = Real(y / m); n->mz = Real(z / m);
}

/* visits every node below n in a task of its own (a taskgroup around the
 * call waits for them): counts the nodes per level and calls the visitor, a
 * lambda of the caller's that outlives the taskgroup (passed by address: a
 * class firstprivate would make GCC copy the task's data with a function) */
template <class Real, class Visit>
void traverse(Tree<Real> &t, Node<Real> *n, const Visit *visit)
{
#pragma omp atomic update
    t.level_nodes[n->depth]++;
    for (Node<Real> *c : n->child) {
        if (!c)
            continue;
#pragma omp task firstprivate(c, visit) shared(t)
        {
            (*visit)(*c);
            traverse(t, c, visit);
        }
    }
}

/* per-level reductions chained by dependences: prefix[l+1] = prefix[l] +
 * nodes at level l; wsum accumulates the prefixes weighted by level */
template <class Real>
long level_chain(const Tree<Real> &t, long *prefix, int levels)
{
    long wsum = 0;
    prefix[0] = 0;
    for (int l = 0; l < levels; l++) {
#pragma omp task depend(in: prefix[l]) depend(out: prefix[l + 1]) firstprivate(l) shared(t)
        prefix[l + 1] = prefix[l] + t.level_nodes[l];
#pragma omp task depend(in: prefix[l + 1]) depend(inout: wsum) firstprivate(l) shared(wsum)
        wsum += prefix[l + 1] * (l + 1);
    }
#pragma omp taskwait
    return wsum;
}

/* the potential at p of the tree below n, Barnes-Hut: a far node by its mass */
template <class Real>
double potential(const Tree<Real> &t, const Node<Real> *n, double px, double py, double pz, double theta)
{
    double dx = n->mx - px, dy = n->my - py, dz = n->mz - pz;
    double d2 = dx * dx + dy * dy + dz * dz + 1e-6;
    double size = 2.0 * n->half;
    if (n->leaf || size * size < theta * theta * d2) {
        if (!n->leaf || size * size < theta * theta * d2)
            return -n->mass / std::sqrt(d2);
        double s = 0;
        for (int i = n->lo; i < n->hi; i++) {
            const Point<Real> &q = t.pts[t.idx[i]];
            double ex = q.x - px, ey = q.y - py, ez = q.z - pz;
            s -= q.m / std::sqrt(ex * ex + ey * ey + ez * ez + 1e-6);
        }
        return s;
    }
    double s = 0;
    for (const Node<Real> *c : n->child)
        if (c)
            s += potential(t, c, px, py, pz, theta);
    return s;
}

/* per leaf: the potential at its centre of mass (the leaves sorted first) */
template <class Real>
void leaf_potentials(const Tree<Real> &t, std::vector<double> &phi, double theta)
{
    const int nl = int(t.leaves.size());
    phi.assign(nl, 0.0);
#ifdef USE_GUIDED
#pragma omp parallel for schedule(guided)
#else
#pragma omp parallel for schedule(dynamic, 16)
#endif
    for (int i = 0; i < nl; i++) {
        const Node<Real> *l = t.leaves[i];
        phi[i] = potential(t, t.root, l->mx, l->my, l->mz, theta);
    }
}

template <class Real>
void destroy(Node<Real> *n)
{
    if (!n)
        return;
    for (Node<Real> *c : n->child)
        destroy(c);
    delete n;
}

} // namespace octree
#endif
