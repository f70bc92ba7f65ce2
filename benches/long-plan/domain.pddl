; A counter raised one step at a time: the plan to reach N has N steps, and
; greedy search's h takes N values, one per state on the way. A stress test
; for whatever grows with the plan's length or with the number of distinct
; heuristic values (open lists, plan shortening, progress reports); see the
; README's "Performance".
(define (domain counter)
  (:requirements :strips :numeric-fluents)
  (:predicates (ready))
  (:functions (count))
  (:action raise
    :parameters ()
    :precondition (ready)
    :effect (increase (count) 1)))
