;; N-queens as a planning task.
;;
;; Place one queen in each row of an NxN board so that no two queens
;; attack each other. Rows are filled top to bottom: the static relation
;; (above ?upper ?lower) orders the rows, and a row can only be filled
;; once every row above it is. A placement's precondition forbids attacks
;; with a universally quantified implication over the queens already
;; placed: none shares the column (equality) and none shares a diagonal
;; (the static relation (same-diagonal ?r1 ?c1 ?r2 ?c2), listed for every
;; ordered pair of distinct squares on one diagonal). Rows never clash,
;; since each row gets one queen.
;; Solvable for N = 1 and N >= 4, unsolvable for N = 2 and 3; every plan
;; has exactly N steps.
;; Problems: `plan generate queens --n N`.
(define (domain queens)
  (:requirements :typing :negative-preconditions :equality
                 :disjunctive-preconditions :universal-preconditions)
  (:types row column)
  (:predicates
    (queen ?r - row ?c - column)
    (placed ?r - row)
    (above ?upper ?lower - row)
    (same-diagonal ?r1 - row ?c1 - column ?r2 - row ?c2 - column))

  (:action place
    :parameters (?r - row ?c - column)
    :precondition
      (and (not (placed ?r))
           (forall (?upper - row)
             (imply (above ?upper ?r) (placed ?upper)))
           (forall (?r2 - row ?c2 - column)
             (imply (queen ?r2 ?c2)
                    (and (not (= ?c2 ?c))
                         (not (same-diagonal ?r ?c ?r2 ?c2))))))
    :effect (and (queen ?r ?c) (placed ?r))))
