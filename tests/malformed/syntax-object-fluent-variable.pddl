; An object fluent compared with a variable (PDDL 3.1): not supported.
(define (domain object-fluent-variable)
  (:requirements :strips :typing :object-fluents)
  (:types loc truck)
  (:predicates (road ?a ?b - loc))
  (:functions (pos ?t - truck) - loc)
  (:action drive
    :parameters (?t - truck ?from ?to - loc)
    :precondition (and (= (pos ?t) ?from) (road ?from ?to))
    :effect (assign (pos ?t) ?to)))
