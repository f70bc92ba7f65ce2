(define (domain wrong-type-variable)
  (:requirements :typing)
  (:types vehicle - object truck car - vehicle place)
  (:predicates (at ?v - vehicle ?p - place) (parked ?c - car))
  (:action park
    :parameters (?t - truck ?p - place)
    :precondition (at ?p ?t)
    :effect (parked ?t)))
