; An object fluent's value as a predicate's argument (PDDL 3.1): not
; supported, said so at the term.
(define (domain function-term-argument)
  (:requirements :strips :typing :object-fluents)
  (:types loc truck)
  (:predicates (road ?a ?b - loc))
  (:functions (pos ?t - truck) - loc)
  (:action drive
    :parameters (?t - truck ?to - loc)
    :precondition (road (pos ?t) ?to)
    :effect (assign (pos ?t) ?to)))
