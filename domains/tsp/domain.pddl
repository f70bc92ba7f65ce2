;; Travelling salesman with action costs.
;;
;; Visit every city once and return to the start. (at ?c) the salesman is
;; in ?c, (visited ?c) ?c has been entered. The start city is not marked
;; visited at first, so entering it again is the last step of a tour;
;; the goal asks for (at home) and every city visited. Driving from ?from
;; to ?to costs the static numeric value (road-length ?from ?to), given
;; in the problem for every ordered pair of distinct cities, and the metric
;; minimises the total cost: the optimum is the shortest tour.
;; Problems: `plan generate tsp --cities N --seed S`.
(define (domain tsp)
  (:requirements :typing :negative-preconditions :equality :action-costs)
  (:types city)
  (:predicates
    (at ?c - city)
    (visited ?c - city))
  (:functions
    (road-length ?from ?to - city) - number
    (total-cost) - number)

  (:action drive
    :parameters (?from ?to - city)
    :precondition (and (at ?from) (not (visited ?to)) (not (= ?from ?to)))
    :effect (and (at ?to) (visited ?to) (not (at ?from))
                 (increase (total-cost) (road-length ?from ?to)))))
