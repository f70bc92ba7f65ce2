; The domain the `*.problem.pddl` cases without their own domain are
; checked against. It is itself clean.
(define (domain shared)
  (:requirements :typing :negative-preconditions :equality :numeric-fluents :action-costs)
  (:types truck package - locatable
          locatable location - object)
  (:constants depot - location)
  (:predicates (at ?x - locatable ?l - location)
               (in ?p - package ?t - truck)
               (road ?from ?to - location))
  (:functions (fuel ?t - truck)
              (distance ?from ?to - location)
              (total-cost))
  (:action drive
    :parameters (?t - truck ?from ?to - location)
    :precondition (and (at ?t ?from) (road ?from ?to)
                       (>= (fuel ?t) (distance ?from ?to)))
    :effect (and (not (at ?t ?from)) (at ?t ?to)
                 (decrease (fuel ?t) (distance ?from ?to))
                 (increase (total-cost) 1)))
  (:action load
    :parameters (?p - package ?t - truck ?l - location)
    :precondition (and (at ?p ?l) (at ?t ?l))
    :effect (and (not (at ?p ?l)) (in ?p ?t) (increase (total-cost) 1)))
  (:action unload
    :parameters (?p - package ?t - truck ?l - location)
    :precondition (and (in ?p ?t) (at ?t ?l))
    :effect (and (not (in ?p ?t)) (at ?p ?l) (increase (total-cost) 1))))
