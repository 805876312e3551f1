/* octree.cpp: a Barnes-Hut style octree code in the shape of real C++ OpenMP
 * programs. A parallel region whose single thread builds the tree with
 * recursive tasks, computes the centres of mass, traverses the tree in a
 * taskgroup and reduces per level through depend-chained tasks (the kernels
 * are templates in octree_tasks.hpp), then a parallel loop over the leaves.
 * Run for double (N points) and float (N/8 points). After the work it replays
 * the recursions serially, without OpenMP, and prints how many times each
 * construct runs ("count NAME N"), so that a test can hold a profile to them.
 * Usage: octree [N]   (default 240000) */
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include "octree_tasks.hpp"

using namespace octree;

namespace {

struct Lcg {
    uint64_t s;
    double next()
    {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        return double(s >> 11) * (1.0 / 9007199254740992.0);
    }
};

/* clustered points in [0, 1)^3: four clumps and a uniform background */
template <class Real>
std::vector<Point<Real>> make_points(int n, uint64_t seed)
{
    Lcg g{seed};
    static const double centre[4][3] = {{0.3, 0.3, 0.3}, {0.7, 0.6, 0.4}, {0.5, 0.8, 0.7}, {0.2, 0.7, 0.8}};
    std::vector<Point<Real>> p(n);
    for (int i = 0; i < n; i++) {
        int k = int(g.next() * 5);
        double x, y, z;
        if (k == 4) {
            x = g.next(); y = g.next(); z = g.next();
        } else {
            double r = 0.02 + 0.1 * k / 3.0;
            x = centre[k][0] + r * (g.next() + g.next() + g.next() - 1.5);
            y = centre[k][1] + r * (g.next() + g.next() + g.next() - 1.5);
            z = centre[k][2] + r * (g.next() + g.next() + g.next() - 1.5);
        }
        p[i] = Point<Real>{Real(x), Real(y), Real(z), Real(0.5 + g.next())};
    }
    return p;
}

struct Counts {
    long task_build = 0, taskwait_build = 0, critical_leaf = 0;
    long task_mass = 0, taskwait_mass = 0;
    long task_traverse = 0, atomic_level = 0, taskgroup = 0;
    long task_prefix = 0, task_wsum = 0, taskwait_chain = 0;
    long parallel = 0, single = 0, leaf_loop = 0;
    void add(const Counts &o)
    {
        task_build += o.task_build; taskwait_build += o.taskwait_build; critical_leaf += o.critical_leaf;
        task_mass += o.task_mass; taskwait_mass += o.taskwait_mass;
        task_traverse += o.task_traverse; atomic_level += o.atomic_level; taskgroup += o.taskgroup;
        task_prefix += o.task_prefix; task_wsum += o.task_wsum; taskwait_chain += o.taskwait_chain;
        parallel += o.parallel; single += o.single; leaf_loop += o.leaf_loop;
    }
};

/* ---- the serial replay: the same recursions, no OpenMP, counting ---- */
template <class Real>
void replay_build(std::vector<Point<Real>> &pts, std::vector<int> &idx, Node<Real> *n, Counts &c)
{
    if (is_leaf(*n)) {
        n->leaf = true;
        c.critical_leaf++;
        return;
    }
    std::array<int, 9> b = split(pts, idx, *n);
    for (int o = 0; o < 8; o++) {
        if (b[o] == b[o + 1])
            continue;
        n->child[o] = make_child(*n, o, b[o], b[o + 1]);
        c.task_build++;
        replay_build(pts, idx, n->child[o], c);
    }
    c.taskwait_build++;
}

template <class Real>
void replay_mass(const Node<Real> *n, Counts &c)
{
    if (n->leaf)
        return;
    for (const Node<Real> *k : n->child)
        if (k && !k->leaf) {
            c.task_mass++;
            replay_mass(k, c);
        }
    c.taskwait_mass++;
}

template <class Real>
void replay_traverse(const Node<Real> *n, long *levels, Counts &c)
{
    c.atomic_level++;
    levels[n->depth]++;
    for (const Node<Real> *k : n->child)
        if (k) {
            c.task_traverse++;
            replay_traverse(k, levels, c);
        }
}

template <class Real>
Counts replay(int n, uint64_t seed)
{
    Counts c;
    std::vector<Point<Real>> pts = make_points<Real>(n, seed);
    std::vector<int> idx(n);
    for (int i = 0; i < n; i++)
        idx[i] = i;
    Node<Real> *root = make_node<Real>(Real(0.5), Real(0.5), Real(0.5), Real(0.5), 0, n, 0);
    replay_build(pts, idx, root, c);
    replay_mass(root, c);
    long levels[kLevels] = {};
    replay_traverse(root, levels, c);
    c.taskgroup = 1;
    int nlev = 0;
    while (nlev < kLevels && levels[nlev])
        nlev++;
    c.task_prefix = c.task_wsum = nlev;
    c.taskwait_chain = 1;
    c.parallel = c.single = c.leaf_loop = 1;
    destroy(root);
    return c;
}

/* ---- the parallel run ---- */
template <class Real>
void run(const char *name, int n, uint64_t seed)
{
    Tree<Real> t;
    t.pts = make_points<Real>(n, seed);
    t.idx.resize(n);
    for (int i = 0; i < n; i++)
        t.idx[i] = i;
    t.root = make_node<Real>(Real(0.5), Real(0.5), Real(0.5), Real(0.5), 0, n, 0);
    long prefix[kLevels + 1] = {};
    long wsum = 0, tags = 0, tagged = 0;
    int nlev = 0;

#pragma omp parallel shared(t, prefix, wsum, tags, tagged, nlev)
#pragma omp single
    {
        build(t, t.root);
        mass(t, t.root);
        const long leaf_weight = 1;
        auto visit = [leaf_weight](Node<Real> &c) {
            c.tag = c.leaf ? leaf_weight * (c.hi - c.lo) : -long(c.depth);
        };
#pragma omp taskgroup
        {
            traverse(t, t.root, &visit);
        }
        while (nlev < kLevels && t.level_nodes[nlev])
            nlev++;
        wsum = level_chain(t, prefix, nlev);
    }

    /* the tags, serially, in the tree's order */
    std::vector<Node<Real> *> stack{t.root};
    while (!stack.empty()) {
        Node<Real> *x = stack.back();
        stack.pop_back();
        if (x != t.root) {
            tags += x->tag;
            tagged++;
        }
        for (Node<Real> *c : x->child)
            if (c)
                stack.push_back(c);
    }

    std::sort(t.leaves.begin(), t.leaves.end(), [](const Node<Real> *a, const Node<Real> *b) { return a->lo < b->lo; });
    std::vector<double> phi;
    leaf_potentials(t, phi, 0.5);
    double phisum = 0, phimin = 0;
    for (double v : phi) {
        phisum += v;
        phimin = std::min(phimin, v);
    }

    long nodes = prefix[nlev], leafpts = 0;
    for (const Node<Real> *l : t.leaves)
        leafpts += l->hi - l->lo;
    std::printf("%s: points %d nodes %ld leaves %zu leaf_points %ld levels %d\n", name, n, nodes, t.leaves.size(), leafpts, nlev);
    std::printf("%s: level_nodes", name);
    for (int l = 0; l < nlev; l++)
        std::printf(" %ld", t.level_nodes[l]);
    std::printf("\n%s: prefix_weighted %ld tags %ld tagged %ld\n", name, wsum, tags, tagged);
    std::printf("%s: mass %.6f com %.6f %.6f %.6f\n", name, double(t.root->mass), double(t.root->mx), double(t.root->my),
                double(t.root->mz));
    std::printf("%s: potential sum %.6e min %.6e\n", name, phisum, phimin);
    destroy(t.root);
}

} // namespace

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 240000;
    if (n < 16) {
        std::fprintf(stderr, "usage: octree [N >= 16]\n");
        return 2;
    }
    run<double>("double", n, 12345);
    run<float>("float", n / 8, 777);

    Counts c = replay<double>(n, 12345);
    c.add(replay<float>(n / 8, 777));
    std::printf("count task_build %ld\n", c.task_build);
    std::printf("count taskwait_build %ld\n", c.taskwait_build);
    std::printf("count critical_leaf %ld\n", c.critical_leaf);
    std::printf("count task_mass %ld\n", c.task_mass);
    std::printf("count taskwait_mass %ld\n", c.taskwait_mass);
    std::printf("count task_traverse %ld\n", c.task_traverse);
    std::printf("count atomic_level %ld\n", c.atomic_level);
    std::printf("count taskgroup %ld\n", c.taskgroup);
    std::printf("count task_prefix %ld\n", c.task_prefix);
    std::printf("count task_wsum %ld\n", c.task_wsum);
    std::printf("count taskwait_chain %ld\n", c.taskwait_chain);
    std::printf("count parallel %ld\n", c.parallel);
    std::printf("count single %ld\n", c.single);
    std::printf("count leaf_loop %ld\n", c.leaf_loop);
    return 0;
}
