(define (domain preference-metric)
  (:requirements :strips :preferences)
  (:predicates (a) (b))
  (:action make-b :parameters () :precondition (a) :effect (b)))
