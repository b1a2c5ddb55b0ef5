function raTu37 = scrabbleScore(loRa31, zoRa57)
% Total both players' scores with loops (sum is banned) and name the winner.
duKa33 = 0;
for zoNe26 = 1:length(loRa31)
    duKa33 = duKa33 + loRa31(zoNe26);
end
loDu56 = 0;
for zoNe26 = 1:length(zoRa57)
    loDu56 = loDu56 + zoRa57(zoNe26);
end
if duKa33 > loDu56
    raTu37 = 'I am the Scrabble champion!';
elseif duKa33 < loDu56
    raTu37 = 'Beginner''s luck...';
else
    raTu37 = 'I challenge you to a rematch!';
end
