(define (domain wrong-type-either)
  (:requirements :typing)
  (:types truck plane boat place)
  (:predicates (at ?v - (either truck plane) ?p - place))
  (:action move-truck
    :parameters (?v - truck ?p - place)
    :effect (at ?v ?p))
  (:action move-boat
    :parameters (?v - boat ?p - place)
    :effect (at ?v ?p))
  (:action move-any
    :parameters (?v - (either boat place) ?p - place)
    :effect (at ?v ?p)))
