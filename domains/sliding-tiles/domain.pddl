;; Sliding-tile puzzle (8-puzzle, 15-puzzle, ...).
;;
;; Numbered tiles sit on the cells (positions) of a square board with one
;; blank cell. (at ?t ?p) tile ?t is on cell ?p, (blank ?p) cell ?p is
;; empty; the board's shape is the static relation (adjacent ?p ?q),
;; listed in both directions. A move slides a tile onto the adjacent blank
;; cell, so the blank moves the other way. The same domain serves every
;; board size: the problem declares the cells and their adjacency.
;; Problems: `plan generate sliding-tiles --size 3|4 --scramble K --seed S`.
(define (domain sliding-tiles)
  (:requirements :strips :typing)
  (:types tile position)
  (:predicates
    (at ?t - tile ?p - position)
    (blank ?p - position)
    (adjacent ?p ?q - position))

  (:action slide
    :parameters (?t - tile ?from ?to - position)
    :precondition (and (at ?t ?from) (blank ?to) (adjacent ?from ?to))
    :effect (and (at ?t ?to) (blank ?from)
                 (not (at ?t ?from)) (not (blank ?to)))))
