function s = strip(s, side, ch)
% MATLAB's strip (R2016b): remove leading and/or trailing whitespace, or the character ch.
  if nargin < 2
    side = 'both';
  end
  if iscell(s)
    args = {side};
    if nargin == 3
      args{2} = ch;
    end
    s = cellfun(@(x) strip(x, args{:}), s, 'UniformOutput', false);
    return;
  end
  if nargin < 3
    drop = isspace(s);
  else
    drop = s == ch;
  end
  first = find(~drop, 1);
  last = find(~drop, 1, 'last');
  if isempty(first)
    s = s([]);
    return;
  end
  if any(strcmpi(side, {'both', 'left'}))
    s = s(first:end);
    last = last - first + 1;
  end
  if any(strcmpi(side, {'both', 'right'}))
    s = s(1:last);
  end
end
