//! Optimal costs of the shipped problems from solvers written here, not from
//! the planner: they check `EXPECTED_OPTIMA`, which the planner tests use.

mod domains_support;

use domains_support::{
    EXPECTED_OPTIMA, facts, independent_optimum, load_domain, load_problem, problem_path, solvers,
};
use planner::generate::rng::Rng;
use planner::generate::{sliding_tiles, tsp};

#[test]
fn independent_solvers_confirm_the_table_of_optima() {
    for &(domain, stem, expected) in EXPECTED_OPTIMA {
        let parsed_domain = load_domain(domain);
        let problem = load_problem(&parsed_domain, &problem_path(domain, stem));
        let optimum = independent_optimum(domain, &facts(&problem));
        assert_eq!(optimum, Some(expected), "{domain}/{stem}");
    }
}

#[test]
fn hanoi_needs_two_to_the_n_minus_one_moves() {
    for discs in 1..=8 {
        assert_eq!(
            solvers::hanoi_bfs(discs),
            Some((1 << discs) - 1),
            "{discs} discs"
        );
    }
}

#[test]
fn tsp_brute_force_and_held_karp_agree() {
    for cities in 2..=8 {
        for seed in 1..=5 {
            let points = tsp::random_cities(cities, &mut Rng::new(seed));
            let distance: Vec<Vec<u64>> = points
                .iter()
                .map(|&a| points.iter().map(|&b| tsp::road_length(a, b)).collect())
                .collect();
            assert_eq!(
                solvers::tsp_brute_force(&distance),
                solvers::tsp_held_karp(&distance)
            );
        }
    }
    // A square's perimeter is the optimal tour, whatever the visiting order.
    let square = vec![
        vec![0, 1, 2, 1],
        vec![1, 0, 1, 2],
        vec![2, 1, 0, 1],
        vec![1, 2, 1, 0],
    ];
    assert_eq!(solvers::tsp_brute_force(&square), 4);
    assert_eq!(solvers::tsp_held_karp(&square), 4);
}

#[test]
fn eight_puzzle_bfs_and_ida_star_agree_within_the_scramble_length() {
    for moves in [0, 1, 7, 15, 30] {
        for seed in 1..=3 {
            let board: Vec<u8> = sliding_tiles::scramble(3, moves, &mut Rng::new(seed))
                .into_iter()
                .map(|t| t as u8)
                .collect();
            let bfs = solvers::tiles_bfs(3, &board).expect("a scramble is solvable");
            assert_eq!(bfs, solvers::tiles_ida_star(3, &board));
            assert!(bfs <= moves as u64);
            assert_eq!(
                bfs % 2,
                moves as u64 % 2,
                "every slide flips the blank's colour"
            );
        }
    }
    // One swap of two tiles makes the 8-puzzle unsolvable.
    assert_eq!(solvers::tiles_bfs(3, &[2, 1, 3, 4, 5, 6, 7, 8, 0]), None);
    assert!(!solvers::tiles_solvable(3, &[2, 1, 3, 4, 5, 6, 7, 8, 0]));
}

#[test]
fn small_blocks_world_optima() {
    // c on a, goal a on b on c: unstack c, put-down c, pick-up b, stack b c,
    // pick-up a, stack a b = 6 steps (the Sussman anomaly).
    let (a, b, c) = (0u8, 1u8, 2u8);
    let start = [None, None, Some(a)];
    let goal = [Some(b), Some(c), None];
    assert_eq!(solvers::blocks_optimum(&start, &goal, &[1, 1, 1]), Some(6));
    // Lifting c costs 10 and it must still move once; the rest costs 5.
    assert_eq!(
        solvers::blocks_optimum(&start, &goal, &[1, 1, 10]),
        Some(10 + 5)
    );
}

#[test]
fn queens_solvability() {
    let solvable: Vec<usize> = (1..=10).filter(|&n| solvers::queens_solvable(n)).collect();
    assert_eq!(solvable, [1, 4, 5, 6, 7, 8, 9, 10]);
}

#[test]
fn briefcase_small_optima() {
    // One item at home that must go to l1: put-in, move, take-out (or it
    // would ride back), move back.
    assert_eq!(solvers::briefcase_optimum(2, &[(0, 1)]), Some(4));
    // Nothing to carry.
    assert_eq!(solvers::briefcase_optimum(3, &[]), Some(0));
}
